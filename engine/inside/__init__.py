"""The page "Inside a trained model": ``analysis`` runs the trained model on a prompt (and generates from it) for the
build and the browser's worker; ``panels`` makes the page's HTML from what it found."""
