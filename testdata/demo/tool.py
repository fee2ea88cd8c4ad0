#!/usr/bin/env python3
# Greets the user.​ The comment is prose‮ and gets cleaned.
# no​qa: a carrier inside a directive is never touched

def greet(name):
    """Docstrings are runtime: this zero​width space is reported, not removed."""
    return 'hello​' + name  # trailing comment with an exotic space
