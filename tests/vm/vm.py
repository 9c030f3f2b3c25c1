#!/usr/bin/env python3
"""A Debian 12 virtual machine with a pure cgroup v2 hierarchy, to run arena's tests in.

`vm.py build` makes the guest once: a root file system from Debian packages (mmdebstrap) and its
kernel, with the busybox and kernel modules of the initrd. It is cached outside the checkout, in
${XDG_CACHE_HOME:-~/.cache}/arena/vm/<hash of this file>, and made again when this file (its
package list and hooks) changes. The initrd, with the init scripts initrd-init and guest-init, is
put together at each boot (they may change without a new image).

`vm.py run [options] -- COMMAND...` boots it under QEMU (KVM where it works, else TCG software
emulation), with the checkout shared read-only at the same path as on the host, runs COMMAND
there as root in the current folder, and exits with COMMAND's status. The guest boots with
cgroup_no_v1=all and cgroup2 mounted on /sys/fs/cgroup; nothing else runs in it (no systemd).

Exit status: COMMAND's; 124 when the wall-clock bound ran out; 77 when this machine cannot make
or boot the guest (the reason on one line); 125 when the guest ended without a status.
"""

import argparse
import fcntl
import hashlib
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
CHECKOUT = HERE.parent.parent

SUITE = "bookworm"
MIRROR = os.environ.get("ARENA_VM_MIRROR", "http://deb.debian.org/debian")
# What the guest needs: a kernel, arena's sandbox tools and runtime libraries, a JDK for the Java
# agent test, and busybox for the initrd.
PACKAGES = [
    "linux-image-amd64", "kmod", "busybox-static",
    "bubblewrap", "util-linux", "mount", "iproute2", "procps",
    "libfmt9", "libstdc++6",
    "default-jdk-headless",
]
# Modules the initrd loads to mount the root disk (the 9p ones are loaded from the root).
INITRD_MODULES = ["virtio_pci", "virtio_blk", "crc32c_generic", "ext4"]

SKIP = 77


class Unavailable(Exception):
    """This machine cannot make or boot the guest."""


def log(msg):
    print(f"vm: {msg}", file=sys.stderr, flush=True)


def cache_root():
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "arena" / "vm"


def recipe_hash():
    return hashlib.sha256(Path(__file__).read_bytes()).hexdigest()[:16]


def image_dir():
    return cache_root() / recipe_hash()


def need_tools(*tools):
    missing = [t for t in tools if shutil.which(t) is None]
    if missing:
        raise Unavailable(f"missing {', '.join(missing)} (bash scripts/setup.sh installs them)")


# --- the initrd: a newc cpio archive written here, so that the host needs no cpio -------------

def cpio_entry(name, mode, data=b""):
    header = "070701" + "".join(f"{v:08x}" for v in (
        0, mode, 0, 0, 1, 0, len(data), 0, 0, 0, 0, len(name) + 1, 0))
    out = header.encode() + name.encode() + b"\0"
    out += b"\0" * (-len(out) % 4) + data
    return out + b"\0" * (-len(out) % 4)


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


def make_initrd(parts, out):
    """The initrd: busybox, the modules, initrd-init as /init and guest-init for the root."""
    data = bytearray()
    for d in ("bin", "dev", "proc", "sys", "newroot", "modules"):
        data += cpio_entry(d, 0o040755)
    data += cpio_entry("bin/busybox", 0o100755, (parts / "busybox").read_bytes())
    data += cpio_entry("init", 0o100755, (HERE / "initrd-init").read_bytes())
    data += cpio_entry("guest-init", 0o100755, (HERE / "guest-init").read_bytes())
    for f in sorted((parts / "modules").iterdir()):
        data += cpio_entry("modules/" + f.name, 0o100644, f.read_bytes())
    data += cpio_entry("TRAILER!!!", 0)
    out.write_bytes(bytes(data))


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


# --- booting -----------------------------------------------------------------------------------

def qemu_command(image, accel, memory, cpus, share, out, cmdline_extra=""):
    cmdline = ("console=ttyS0 quiet loglevel=3 panic=-1 cgroup_no_v1=all "
               f"arena.share={share} {cmdline_extra}").strip()
    cmd = ["qemu-system-x86_64", "-nodefaults", "-no-user-config", "-display", "none",
           "-no-reboot", "-m", memory, "-smp", str(cpus),
           "-accel", accel, "-cpu", "host" if accel == "kvm" else "max",
           "-kernel", str(image / "vmlinuz"), "-initrd", str(Path(out) / "initrd.img"),
           "-append", cmdline,
           # Writes go to a temporary overlay: the cached image stays as it was made.
           "-drive", f"file={image / 'rootfs.img'},if=virtio,format=raw,snapshot=on",
           "-virtfs", f"local,path={share},mount_tag=share,security_model=none,readonly=on",
           "-virtfs", f"local,path={out},mount_tag=out,security_model=none",
           "-nic", "none", "-chardev", "stdio,id=console,signal=off", "-serial", "chardev:console"]
    return cmd


def boot(image, accel, args, script, timeout, quiet=False):
    """Boots the guest to run `script` (shell text); gives (status, seconds)."""
    with tempfile.TemporaryDirectory(prefix="arena-vm-out-") as out:
        Path(out, "command").write_text(script)
        make_initrd(image / "initrd-parts", Path(out) / "initrd.img")
        cmd = qemu_command(image, accel, args.memory, args.cpus, args.share, out)
        start = time.monotonic()
        stdout = subprocess.DEVNULL if quiet else None
        proc = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=stdout,
                                stderr=stdout, start_new_session=True)
        try:
            proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
            return 124, time.monotonic() - start
        seconds = time.monotonic() - start
        status = Path(out, "status")
        if not status.exists():
            if not Path(out, "booted").exists():
                raise Unavailable(f"the guest did not boot under QEMU ({accel}) within "
                                  f"{seconds:.0f} s")
            return 125, seconds
        return int(status.read_text().strip() or 125), seconds


def pick_accel(image, args):
    """KVM where it boots this guest's kernel (tried once, the answer cached), else TCG."""
    wanted = os.environ.get("ARENA_VM_ACCEL", "auto")
    if wanted in ("kvm", "tcg"):
        return wanted
    if not os.access("/dev/kvm", os.R_OK | os.W_OK):
        return "tcg"
    answer = image / "accel"
    if answer.exists():
        return answer.read_text().strip()
    log("trying KVM (once)")
    try:
        status, _ = boot(image, "kvm", args, "true\n", timeout=60, quiet=True)
    except Unavailable:
        status = 1
    accel = "kvm" if status == 0 else "tcg"
    answer.write_text(accel + "\n")
    log(f"KVM {'boots' if accel == 'kvm' else 'does not boot'} this guest: using {accel}")
    return accel


def run(args):
    need_tools("qemu-system-x86_64")
    if not args.command:
        raise SystemExit("vm: run: give the command after --")
    image = ensure_image()
    accel = pick_accel(image, args)
    env = "".join(f"export {shlex_quote(e)}\n" for e in args.env)
    script = (f"cd {shlex_quote(os.getcwd())} || exit 1\n{env}"
              + " ".join(shlex_quote(a) for a in args.command) + "\n")
    log(f"booting ({accel}, {args.memory} RAM, {args.cpus} CPUs, {args.share} shared read-only)")
    status, seconds = boot(image, accel, args, script, args.timeout)
    if status == 124:
        log(f"the command did not end within {args.timeout} s: stopped")
    elif status == 125:
        log("the guest ended without the command's status (crashed, or failed to boot)")
    else:
        log(f"the command ended with status {status} after {seconds:.0f} s (boot included)")
    return status


def shlex_quote(s):
    import shlex
    return shlex.quote(s)


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="action", required=True)
    sub.add_parser("build", help="make the guest (if this recipe has none cached yet)")
    sub.add_parser("path", help="print the cached guest's folder (making it first)")
    r = sub.add_parser("run", help="run a command in the guest: vm.py run [options] -- CMD...")
    r.add_argument("--timeout", type=int, default=600, help="wall-clock bound in seconds "
                   "(boot included; default 600)")
    r.add_argument("--memory", default="6G", help="guest RAM (default 6G)")
    r.add_argument("--cpus", type=int, default=2, help="virtual CPUs (default 2)")
    r.add_argument("--share", default=str(CHECKOUT), help="host folder shared read-only at the "
                   "same path (default: this checkout)")
    r.add_argument("--env", action="append", default=[], metavar="NAME=VALUE",
                   help="set in the command's environment (repeatable)")
    r.add_argument("command", nargs=argparse.REMAINDER)
    args = parser.parse_args()
    try:
        if args.action == "build":
            print(ensure_image())
            return 0
        if args.action == "path":
            print(ensure_image())
            return 0
        if args.command and args.command[0] == "--":
            args.command = args.command[1:]
        return run(args)
    except Unavailable as e:
        print(f"vm: cannot run the guest on this machine: {e}", file=sys.stderr)
        return SKIP


if __name__ == "__main__":
    sys.exit(main())
