"""Build hook for the optional compiled kernel; metadata lives in pyproject.toml.

The kernel is the C units under src/lexiko/_kernel/ (one extension, lexiko._kernel).
Warnings are on (-Wall -Wextra -Wshadow); LEXIKO_STRICT_BUILD=1 makes them errors (CI).
Link-time optimization lets the compiler inline across the units as it did when the
kernel was one file. CFLAGS from the environment (a sanitizer build) come before these.
"""

import os
from pathlib import Path

from setuptools import Extension, setup

KERNEL = Path("src", "lexiko", "_kernel")
SOURCES = sorted(path.as_posix() for path in KERNEL.glob("*.c"))
HEADERS = sorted(path.as_posix() for path in KERNEL.glob("*.h"))
COMPILE_ARGS = ["-O3", "-Wall", "-Wextra", "-Wshadow", "-fvisibility=hidden", "-flto=auto"]
LINK_ARGS = ["-O3", "-flto=auto"]
if os.environ.get("LEXIKO_STRICT_BUILD") == "1":
    COMPILE_ARGS.append("-Werror")
    LINK_ARGS.append("-Werror")

setup(
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
    ]
)
