"""Old import path of games.ui.wec.panels (moved there in issue 18); an alias, so
code written against the old path keeps working."""

import sys

from games.ui.wec import panels as _moved

sys.modules[__name__] = _moved
