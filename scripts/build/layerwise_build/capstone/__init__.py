"""Build side of the page "Build your GPT": the engine's reference curves (cached) and the page's HTML."""
