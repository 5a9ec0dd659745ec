"""pip install --break-system-packages --no-build-isolation --no-deps .

Builds the `toguz` Python module with the project's own CMake (python/CMakeLists.txt) and
installs it with its type stubs. Offline: nothing is downloaded (Debian's pybind11-dev,
python3-dev and the project's build dependencies must be installed: scripts/install-deps).
"""
import os
import pathlib
import re
import shutil
import subprocess
import sys

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

ROOT = pathlib.Path(__file__).resolve().parent


def project_version():
    text = (ROOT / "CMakeLists.txt").read_text(encoding="utf-8")
    return re.search(r"project\(toguz VERSION ([0-9.]+)", text).group(1)


class CMakeBuild(build_ext):
    """Configures the project with only the module switched on and builds its target."""

    def build_extension(self, ext):
        build_dir = pathlib.Path(self.build_temp).resolve() / "cmake"
        build_dir.mkdir(parents=True, exist_ok=True)
        generator = ["-G", "Ninja"] if shutil.which("ninja") else []
        subprocess.check_call(["cmake", "-S", str(ROOT), "-B", str(build_dir), *generator,
                               "-DCMAKE_BUILD_TYPE=Release", f"-DPython_EXECUTABLE={sys.executable}",
                               "-DTOGUZ_PYTHON=ON", "-DTOGUZ_TESTS=OFF", "-DTOGUZ_BENCH=OFF"])
        jobs = os.environ.get("CMAKE_BUILD_PARALLEL_LEVEL", str(os.cpu_count() or 1))
        subprocess.check_call(["cmake", "--build", str(build_dir), "--target", "toguz_python", "-j", jobs])
        built = next((build_dir / "python").glob("toguz*.so"), None)
        if built is None:
            raise RuntimeError("the CMake build made no toguz module (is pybind11-dev installed?)")
        target = pathlib.Path(self.get_ext_fullpath(ext.name))
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(built, target)
        shutil.copyfile(ROOT / "python" / "toguz.pyi", target.parent / "toguz.pyi")


setup(
    name="toguz",
    version=project_version(),
    description="Toguz korgool / Togyz kumalak rules, engine and batched RL environment",
    long_description=(ROOT / "docs" / "python.md").read_text(encoding="utf-8")
    if (ROOT / "docs" / "python.md").exists() else "",
    long_description_content_type="text/markdown",
    python_requires=">=3.9",
    ext_modules=[Extension("toguz", sources=[])],
    cmdclass={"build_ext": CMakeBuild},
    zip_safe=False,
)
