"""`minimax-lab site DIR`: the lab in a browser with nothing to install (docs/site.md).

`parts` fetches the pinned releases the site runs on into a cache, `build` writes the static
site, `browser` is the Python the site runs in Pyodide; `assets/` holds its pages and workers.
"""
