"""Build hook for the optional compiled move generator; metadata lives in pyproject.toml."""

from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension(
            "lexiko._kernel",
            ["src/lexiko/_kernel.c"],
            optional=True,
            extra_compile_args=["-O3"],
        )
    ]
)
