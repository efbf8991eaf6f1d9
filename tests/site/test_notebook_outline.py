"""The outline a page's notebook is made from (layerwise_build/notebooks/outline.py), on a page written for it."""
from crosslink_harness import REPO  # noqa: F401  (puts scripts/ on sys.path)
from layerwise_build.notebooks.outline import Heading, Sentence, outline

PAGE = '''# Toy layer

It maps x to 2x. Nothing else.

## Before you start

After this page you can:

- double a number;
- say why.

## Mathematics {#maths}

!!! info "Not prose"
    An admonition is skipped.

The forward is $y = 2x$. The backward follows.

```python
# a comment in code is no heading
```

=== "Tab"

    ```widget kind="linear" id="in-a-tab"
    {"X": [[1]]}
    ```

### Shapes

```shapes title="Toy"
x: (T, d)
```

## Takeaways

- Doubling is linear. It has a constant gradient.
- Second.

## Practice

```exercise id="linear-forward"
```
'''


def test_headings_first_sentences_and_live_parts_in_document_order():
    items = outline(PAGE)
    shown = [(type(i).__name__, i.level if isinstance(i, Heading) else None,
              i.text if isinstance(i, (Heading, Sentence)) else (i.name, i.attrs.get("id") or i.attrs.get("title")))
             for i in items]
    assert shown == [
        ("Heading", 1, "Toy layer"),
        ("Sentence", None, "It maps x to 2x."),
        ("Heading", 2, "Before you start"),
        ("Sentence", None, "After this page you can:\n\n- double a number;\n- say why."),
        ("Heading", 2, "Mathematics"),
        ("Sentence", None, "The forward is $y = 2x$."),
        ("Fence", None, ("widget", "in-a-tab")),
        ("Heading", 3, "Shapes"),
        ("Fence", None, ("shapes", "Toy")),
        ("Heading", 2, "Takeaways"),
        ("Sentence", None, "Doubling is linear. It has a constant gradient."),
        ("Heading", 2, "Practice"),
        ("Fence", None, ("exercise", "linear-forward")),
    ]
    assert items[6].body == '{"X": [[1]]}'  # the tab's indentation removed, as the widgets' part reads it
