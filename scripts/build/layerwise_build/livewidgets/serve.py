"""A tiny threaded HTTP server for a built site, with the MIME types Pyodide needs, for tests and benchmarks.

``.wasm`` must be ``application/wasm`` (anything else makes ``loadPyodide`` hang silently) and ``.mjs`` must be
JavaScript. ``wasm_type`` lets a test reproduce that trap on purpose.
"""
import functools
import threading
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer


class SiteHandler(SimpleHTTPRequestHandler):
    """Serves the site's files with the types above; a subclass may serve them as a host would (compressed) or stall."""
    extensions_map = {**SimpleHTTPRequestHandler.extensions_map, ".wasm": "application/wasm",
                      ".mjs": "text/javascript", ".js": "text/javascript", ".json": "application/json",
                      ".whl": "application/zip", ".zip": "application/zip"}

    def log_message(self, format, *args):  # keep test output clean
        pass


def start_server(directory, port=0, wasm_type="application/wasm", handler=SiteHandler):
    """Serve ``directory`` on 127.0.0.1 in a daemon thread with ``handler`` (a SiteHandler); returns the server
    (``.server_port``, ``.shutdown()``)."""
    handler = type(handler.__name__, (handler,), {"extensions_map": {**handler.extensions_map, ".wasm": wasm_type}})
    server = ThreadingHTTPServer(("127.0.0.1", port), functools.partial(handler, directory=str(directory)))
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server
