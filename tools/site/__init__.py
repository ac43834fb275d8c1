"""The site's development tools as a Django app (label ``devtools``): the
benchmark kit, the bare baseline views and the benchmark, load and soak
commands.  Installed only in development and tests (wecsite/settings.py,
WEC_DEVTOOLS); a production install never loads it."""
