"""Old import path of games.ui.wec.review (moved there in issue 18); an alias, so
code written against the old path keeps working."""

import sys

from games.ui.wec import review as _moved

sys.modules[__name__] = _moved
