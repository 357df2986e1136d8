"""Build hook for the optional compiled kernel; metadata lives in pyproject.toml.

The kernel is the C units under src/lexiko/_kernel/ (one extension, lexiko._kernel).
Warnings are on (-Wall -Wextra -Wshadow); LEXIKO_STRICT_BUILD=1 makes them errors (CI).
Link-time optimization lets the compiler inline across the units as it did when the
kernel was one file. CFLAGS from the environment (a sanitizer build) come before these.
"""

import os
import re
from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_py import build_py

KERNEL = Path("src", "lexiko", "_kernel")
SOURCES = sorted(path.as_posix() for path in KERNEL.glob("*.c"))
HEADERS = sorted(path.as_posix() for path in KERNEL.glob("*.h"))
# -O3 unless CFLAGS names a level (a sanitizer build's -O1 must win: these come after it)
OPT = [] if re.search(r"(^|\s)-O", os.environ.get("CFLAGS", "")) else ["-O3"]
COMPILE_ARGS = [*OPT, "-Wall", "-Wextra", "-Wshadow", "-fvisibility=hidden", "-flto=auto"]
LINK_ARGS = [*OPT, "-flto=auto"]
if os.environ.get("LEXIKO_STRICT_BUILD") == "1":
    COMPILE_ARGS.append("-Werror")
    LINK_ARGS.append("-Werror")


class BuildPy(build_py):
    """build_py without the kernel's folder as a package: to setuptools' finder it is the
    namespace package lexiko._kernel, whose C files would go into the wheel as its data.
    Its files are then the lexiko package's, which pyproject.toml keeps out of the wheel."""

    def finalize_options(self) -> None:
        super().finalize_options()
        self.packages = [name for name in self.packages or [] if name != "lexiko._kernel"]


setup(
    cmdclass={"build_py": BuildPy},
    ext_modules=[
        Extension(
            "lexiko._kernel",
            SOURCES,
            include_dirs=[KERNEL.as_posix()],
            depends=HEADERS,
            optional=True,
            extra_compile_args=COMPILE_ARGS,
            extra_link_args=LINK_ARGS,
        )
    ],
)
