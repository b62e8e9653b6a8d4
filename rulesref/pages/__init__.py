"""Server-rendered rules pages for judges' tablets: views, rule text markup, the jump box.

A package rather than one pages.py: the views, the text markup and the per-version outline cache
are three ideas of about 150-250 lines each.
"""
