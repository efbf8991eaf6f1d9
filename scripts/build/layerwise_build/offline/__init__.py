"""The site kept for reading offline (the plugin's option ``offline``): its icons (``icons``), its web app manifest
and theme colours (``webapp``), and the list of files its service worker keeps (``precache``)."""
