#!/usr/bin/env python3
"""A Debian 12 virtual machine with a pure cgroup v2 hierarchy, to run arena's tests in.

`vm.py build` makes the guest once (tests/vm/image.py: Debian packages by mmdebstrap, as an ext4
image, and its kernel). It is cached outside the checkout, in
${XDG_CACHE_HOME:-~/.cache}/arena/vm/<hash of image.py>, and made again when image.py changes.
The initrd (busybox, the modules of the root disk, initrd-init and guest-init) is put together at
each boot.

`vm.py run [options] -- COMMAND...` boots it under QEMU (KVM where it works, else TCG software
emulation), with the checkout shared read-only at the same path as on the host, runs COMMAND
there as root in the current folder, and exits with COMMAND's status. The guest boots with
cgroup_no_v1=all and cgroup2 mounted on /sys/fs/cgroup; nothing else runs in it (no systemd).

Exit status: COMMAND's; 124 when the wall-clock bound ran out; 77 when this machine cannot make
or boot the guest (the reason on one line); 125 when the guest ended without a status.
"""

import argparse
import os
import shlex
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.dont_write_bytecode = True  # no __pycache__ in the checkout (which the guest sees read-only)
from image import SKIP, Unavailable, ensure_image, log, need_tools  # noqa: E402

HERE = Path(__file__).resolve().parent
CHECKOUT = HERE.parent.parent
# The emulated CPU: every feature TCG has, but
# - not "enhanced REP MOVSB/STOSB": with it the kernel clears pages and glibc fills memory with
#   `rep stosb`, which TCG runs a byte at a time;
# - not AVX and what builds on it: QEMU 7.2 (Debian 12's) was the first to emulate them, and later
#   releases mended many of its VEX instructions. A JVM's generated code uses them everywhere it
#   can; javac once died with SIGABRT in the guest (cause not seen). Without them the JVM and
#   glibc use SSE; nothing of arena's is built for AVX.
TCG_CPU = os.environ.get("ARENA_VM_CPU",
                         "max,-erms,-fsrm,-avx,-avx2,-f16c,-fma,-vaes,-vpclmulqdq,-avx-vnni")


# --- the initrd: a newc cpio archive written here, so that the host needs no cpio -------------

def cpio_entry(name, mode, data=b""):
    header = "070701" + "".join(f"{v:08x}" for v in (
        0, mode, 0, 0, 1, 0, len(data), 0, 0, 0, 0, len(name) + 1, 0))
    out = header.encode() + name.encode() + b"\0"
    out += b"\0" * (-len(out) % 4) + data
    return out + b"\0" * (-len(out) % 4)


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


# --- booting -----------------------------------------------------------------------------------

def qemu_command(image, accel, memory, cpus, share, out, cmdline_extra=""):
    cmdline = ("console=ttyS0 quiet loglevel=3 panic=-1 cgroup_no_v1=all "
               f"arena.share={share} {cmdline_extra}").strip()
    cmd = ["qemu-system-x86_64", "-nodefaults", "-no-user-config", "-display", "none",
           "-no-reboot", "-m", memory, "-smp", str(cpus),
           "-accel", accel, "-cpu", "host" if accel == "kvm" else TCG_CPU,
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
    env = "".join(f"export {shlex.quote(e)}\n" for e in args.env)
    script = (f"cd {shlex.quote(os.getcwd())} || exit 1\n{env}"
              + " ".join(shlex.quote(a) for a in args.command) + "\n")
    log(f"booting ({accel}, {args.memory} RAM, {args.cpus} CPUs, {args.share} shared read-only)")
    status, seconds = boot(image, accel, args, script, args.timeout)
    if status == 124:
        log(f"the command did not end within {args.timeout} s: stopped")
    elif status == 125:
        log("the guest ended without the command's status (crashed, or failed to boot)")
    else:
        log(f"the command ended with status {status} after {seconds:.0f} s (boot included)")
    return status


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
