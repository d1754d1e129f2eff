"""Install metadata, read from settings.ini (the nbdev 2 template, trimmed)."""
from configparser import ConfigParser
import setuptools, shlex

cfg = ConfigParser(delimiters=["="])
cfg.read("settings.ini", encoding="utf-8")
cfg = cfg["DEFAULT"]
reqs = shlex.split(cfg.get("requirements", ""))
dev_reqs = shlex.split(cfg.get("dev_requirements", ""))
scripts = [s.strip() for s in cfg.get("console_scripts", "").splitlines() if s.strip()]

setuptools.setup(
    name=cfg["lib_name"],
    version=cfg["version"],
    description=cfg["description"],
    long_description=open("README.md", encoding="utf-8").read(),
    long_description_content_type="text/markdown",
    author=cfg["author"],
    author_email=cfg["author_email"],
    url=cfg["git_url"],
    license="Apache-2.0",
    python_requires=">=" + cfg["min_python"],
    packages=setuptools.find_packages(include=["nlicompendium", "nlicompendium.*"]),
    include_package_data=True,
    install_requires=reqs,
    extras_require={"dev": dev_reqs},
    entry_points={"console_scripts": scripts, "nbdev": [f"{cfg['lib_name']}={cfg['lib_name']}._modidx:d"],
                  # `papermill --engine nlic`: a line per finished cell where no bar is drawn (nbs/00b_progress.ipynb)
                  "papermill.engine": ["nlic=nlicompendium.progress:ProgressEngine"]},
    zip_safe=False,
)
