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
myst_enable_extensions = ["colon_fence"]
autodoc_member_order = "bysource"
autodoc_typehints = "description"
nb_execution_mode = os.environ.get("NLIC_DOCS_EXECUTE", "force")  # run every notebook, so pages show fresh outputs
nb_execution_timeout = int(os.environ.get("NLIC_DOCS_TIMEOUT", "1200"))
nb_execution_raise_on_error = True  # a notebook that fails breaks the build
nb_execution_in_temp = False
nb_merge_streams = True
html_theme = "furo"
html_title = "nlicompendium"
exclude_patterns = ["_build", "**.ipynb_checkpoints"]
suppress_warnings = ["mystnb.unknown_mime_type", "myst.header"]
