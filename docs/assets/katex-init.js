// Render the math that pymdownx.arithmatex left as \( \) and \[ \] in .arithmatex elements, with the KaTeX
// vendored into the site. `document$` fires on the first load and after every instant-navigation page switch.
document$.subscribe(({ body }) => {
  for (const element of body.querySelectorAll(".arithmatex")) {
    renderMathInElement(element, {
      delimiters: [
        { left: "\\(", right: "\\)", display: false },
        { left: "\\[", right: "\\]", display: true },
      ],
      throwOnError: false,
    });
  }
});
