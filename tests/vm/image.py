#!/usr/bin/env python3
"""The recipe of the cgroup v2 test guest (tests/vm/vm.py boots it): a Debian 12 root file system
from Debian packages (mmdebstrap) as an ext4 image, its kernel, and the busybox and kernel modules
the initrd needs. Made once and cached outside the checkout, in
${XDG_CACHE_HOME:-~/.cache}/arena/vm/<hash of this file and the package list>: a change here
makes a new guest, and the old ones are removed. `python3 image.py` makes it (when missing) and prints its folder.
"""

import fcntl
import hashlib
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

# The exit status of a skipped test (ctest's SKIP_RETURN_CODE): this machine cannot run the guest.
SKIP = 77

SUITE = "bookworm"
MIRROR = os.environ.get("ARENA_VM_MIRROR", "http://deb.debian.org/debian")
# What the guest needs: a kernel, arena's sandbox tools, the runtime libraries `ldd arena` names
# beyond libc (fmt, libstdc++, libarchive, libsodium, cpp-httplib with its TLS and compression
# libraries, SQLite), and busybox for the initrd; and a JDK for the Java
# agent test, unless ARENA_VM_JDK=0 (then that test skips).
PACKAGES = [
    "linux-image-amd64", "kmod", "busybox-static",
    "bubblewrap", "util-linux", "mount", "iproute2", "procps",
    "libfmt9", "libstdc++6", "libarchive13", "libsodium23", "libcpp-httplib0.11", "libsqlite3-0",
] + (["default-jdk-headless"] if os.environ.get("ARENA_VM_JDK", "1") != "0" else [])
# Modules the initrd loads to mount the root disk (the 9p ones are loaded from the root).
INITRD_MODULES = ["virtio_pci", "virtio_blk", "crc32c_generic", "ext4"]


class Unavailable(Exception):
    """This machine cannot make or boot the guest."""


def log(msg):
    print(f"vm: {msg}", file=sys.stderr, flush=True)


def cache_root():
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "arena" / "vm"


def recipe_hash():
    recipe = Path(__file__).resolve().read_bytes() + "\0".join(PACKAGES).encode()
    return hashlib.sha256(recipe).hexdigest()[:16]


def image_dir():
    return cache_root() / recipe_hash()


def need_tools(*tools):
    missing = [t for t in tools if shutil.which(t) is None]
    if missing:
        raise Unavailable(f"missing {', '.join(missing)} (bash scripts/setup.sh installs them)")


# --- the initrd's parts ----------------------------------------------------------------------

def module_order(root, version, names):
    """The .ko files of `names` and their dependencies, dependencies first."""
    moddir = root / "lib" / "modules" / version
    deps = {}
    for line in (moddir / "modules.dep").read_text().splitlines():
        path, _, rest = line.partition(":")
        deps[path] = rest.split()
    by_name = {Path(p).name.split(".ko")[0].replace("-", "_"): p for p in deps}
    order = []

    def add(path):
        if path in order:
            return
        for d in deps.get(path, []):
            add(d)
        order.append(path)

    for n in names:
        if n in by_name:
            add(by_name[n])  # absent: built into the kernel
    return [moddir / p for p in order]


def save_initrd_parts(root, version, parts):
    """Keeps what the initrd needs from the root file system: busybox and the modules."""
    (parts / "modules").mkdir(parents=True)
    shutil.copy(root / "bin" / "busybox", parts / "busybox")
    names = []
    for i, ko in enumerate(module_order(root, version, INITRD_MODULES)):
        names.append(f"{i:02d}-{ko.name}")
        shutil.copy(ko, parts / "modules" / names[-1])
    (parts / "modules" / "order").write_text("\n".join(names) + "\n")


# --- the image ---------------------------------------------------------------------------------

def build_image(target):
    need_tools("mmdebstrap", "mke2fs")
    mode = "root" if os.geteuid() == 0 else "unshare"
    work = Path(tempfile.mkdtemp(prefix="arena-vm-", dir=target.parent))
    rootfs = work / "rootfs"
    start = time.monotonic()
    hooks = [
        # The JDK's packages install man page links and fail without the folder.
        "--essential-hook=mkdir -p \"$1/usr/share/man/man1\"",
        # The kernel package's initramfs is not used (the guest boots with ours): skip making it.
        "--essential-hook=chroot \"$1\" dpkg-divert --quiet --local --rename "
        "--add /usr/sbin/update-initramfs && ln -s /bin/true \"$1/usr/sbin/update-initramfs\"",
        # A plain user for the tests of a delegated cgroup subtree.
        "--customize-hook=chroot \"$1\" useradd --create-home --uid 1000 --shell /bin/sh arena",
        "--customize-hook=echo arena-vm > \"$1/etc/hostname\"",
    ]
    excludes = ["/usr/share/doc/*", "/usr/share/man/*", "/usr/share/locale/*", "/usr/share/info/*"]
    cmd = ["mmdebstrap", f"--mode={mode}", "--variant=essential", "--quiet",
           "--include=" + ",".join(PACKAGES)]
    cmd += [f"--dpkgopt=path-exclude={p}" for p in excludes]
    cmd += hooks + [SUITE, str(rootfs), MIRROR]
    log(f"making the guest's root file system ({mode} mode, from {MIRROR}); log: {work}/build.log")
    with open(work / "build.log", "w") as out:
        rc = subprocess.run(cmd, stdout=out, stderr=subprocess.STDOUT).returncode
    if rc != 0:
        tail = (work / "build.log").read_text(errors="replace").strip().splitlines()[-3:]
        shutil.rmtree(work, ignore_errors=True)
        raise Unavailable("mmdebstrap failed (no root or user namespaces, or no network to "
                          f"{MIRROR}?): {' | '.join(tail)}")
    kernels = sorted((rootfs / "boot").glob("vmlinuz-*"))
    if not kernels:
        raise Unavailable("the guest has no kernel in /boot")
    version = kernels[-1].name[len("vmlinuz-"):]
    shutil.copy(kernels[-1], work / "vmlinuz")
    save_initrd_parts(rootfs, version, work / "initrd-parts")
    # The root file system as an ext4 image, made from the folder (no loop mount needed).
    size_mb = int(subprocess.run(["du", "-sm", str(rootfs)], capture_output=True,
                                 text=True).stdout.split()[0]) * 5 // 4 + 256
    subprocess.run(["mke2fs", "-q", "-t", "ext4", "-L", "arena-vm", "-d", str(rootfs),
                    str(work / "rootfs.img"), f"{size_mb}M"], check=True,
                   stdout=subprocess.DEVNULL)
    subprocess.run(["rm", "-rf", str(rootfs)], check=True)
    seconds = time.monotonic() - start
    (work / "build-seconds").write_text(f"{seconds:.0f}\n")
    (work / "kernel-version").write_text(version + "\n")
    os.rename(work, target)
    log(f"guest made in {seconds:.0f} s: {target} (kernel {version}, {size_mb} MB disk)")


def ensure_image():
    """The cached guest for this recipe, made first where missing. Old ones are removed."""
    target = image_dir()
    if (target / "rootfs.img").exists():
        return target
    cache_root().mkdir(parents=True, exist_ok=True)
    with open(cache_root() / "lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # one build at a time; the others wait for it
        if not (target / "rootfs.img").exists():
            build_image(target)
            for old in cache_root().iterdir():
                if old.is_dir() and old != target:
                    shutil.rmtree(old, ignore_errors=True)
    return target


if __name__ == "__main__":
    if len(sys.argv) > 1:
        print(__doc__.strip() + "\n\nUsage: image.py (no options). ARENA_VM_JDK=0: no JDK; "
              "ARENA_VM_MIRROR: the Debian mirror.")
        sys.exit(0 if sys.argv[1] in ("-h", "--help") else 2)
    try:
        print(ensure_image())
    except Unavailable as e:
        sys.exit(f"vm: cannot make the guest on this machine: {e}")
