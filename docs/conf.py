"""Sphinx configuration: the compendium's docs site, built offline from the notebooks with MyST-NB."""
import configparser, os
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
cfg = configparser.ConfigParser(delimiters=["="]); cfg.read(ROOT / "settings.ini")
project = "nlicompendium"
author = cfg["DEFAULT"]["author"]
copyright = cfg["DEFAULT"]["copyright"]
release = cfg["DEFAULT"]["version"]

extensions = ["myst_nb", "sphinx.ext.autodoc", "sphinx.ext.viewcode"]
myst_enable_extensions = ["colon_fence", "dollarmath", "amsmath"]  # $...$ and $$...$$ in the notebooks render as MathJax
autodoc_member_order = "bysource"
autodoc_typehints = "description"
nb_execution_mode = os.environ.get("NLIC_DOCS_EXECUTE", "off")  # docs/build.py --execute runs the library notebooks
nb_execution_excludepatterns = ["results/*"]  # the committed runs are shown as they executed, never rerun
nb_execution_timeout = int(os.environ.get("NLIC_DOCS_TIMEOUT", "1200"))
nb_execution_raise_on_error = True  # a notebook that fails breaks the build
nb_execution_in_temp = False
nb_merge_streams = True
html_theme = "furo"
html_static_path = [str(ROOT / "docs" / "_gen" / "_static")]  # docs/build.py copies MathJax there
html_css_files = ["verdicts.css"]  # the scorecard's verdict colours
mathjax_path = "mathjax/MathJax.js?config=TeX-AMS-MML_HTMLorMML-full"  # local (relative to _static), not a CDN: the site works offline
mathjax2_config = {"tex2jax": {"inlineMath": [["\\(", "\\)"]], "displayMath": [["\\[", "\\]"]],
                               "processRefs": False, "processEnvironments": False}}
myst_update_mathjax = False  # MyST's MathJax 3 options (`window.MathJax = {options: ...}`) would stop MathJax 2 from starting
html_title = "nlicompendium"
exclude_patterns = ["_build", "**.ipynb_checkpoints"]
suppress_warnings = ["mystnb.unknown_mime_type", "myst.header"]
