"""The settings the tests run with: judgeapp.settings in development mode.

Debug is off unless asked for (issue 29), and then a secret and the host names are required; the
tests (and the processes they start, which inherit this environment) ask for debug, as `make run`
does. A test of the production defaults sets its own environment in a subprocess.
"""

import os

os.environ.setdefault("DJANGO_DEBUG", "1")

from judgeapp.settings import *  # noqa: E402,F403
