"""What the sandbox must show of the Python runtime: printed as JSON, run once when the server starts.

Run unsandboxed, with no user input, by the interpreter the sandbox will use: its executable, its
standard library, the ELF interpreter (dynamic loader) of the executable, and every shared library
it maps once the runner's modules are loaded. The server binds exactly these read-only into the
sandbox (docs/security.md, "The strategy sandbox").
"""
import json
import os
import struct
import sys
import sysconfig

sys.path.append(os.path.dirname(os.path.abspath(__file__)))

import execution  # noqa: E402
import signals  # noqa: E402,F401


def elf_interpreter(path):
    """The PT_INTERP path of an ELF executable (the dynamic loader), or None (static, not ELF)."""
    with open(path, 'rb') as f:
        header = f.read(64)
        if header[:4] != b'\x7fELF' or header[4] != 2:
            return None
        order = '<' if header[5] == 1 else '>'
        phoff, = struct.unpack(order + 'Q', header[32:40])
        phentsize, phnum = struct.unpack(order + 'HH', header[54:58])
        for i in range(phnum):
            f.seek(phoff + i * phentsize)
            p_type, _flags, p_offset, _vaddr, _paddr, p_filesz = struct.unpack(order + 'IIQQQQ', f.read(40))
            if p_type == 3:
                f.seek(p_offset)
                return f.read(p_filesz).rstrip(b'\0').decode()
    return None


def mapped_libraries():
    """The shared libraries mapped now, with the links the loader looks them up by (libz.so.1 -> libz.so.1.2.13)."""
    found = set()
    with open('/proc/self/maps') as maps:
        for line in maps:
            parts = line.split(None, 5)
            if len(parts) == 6 and parts[5].startswith('/') and '.so' in parts[5]:
                found.add(parts[5].strip())
    named = set(found)
    for path in found:
        folder, base = os.path.split(path)
        stem = base[:base.index('.so') + 3]
        with os.scandir(folder) as entries:
            for entry in entries:
                if entry.name.startswith(stem) and entry.is_symlink() and os.path.realpath(entry.path) == os.path.realpath(path):
                    named.add(entry.path)
    return sorted(named)


def main():
    # What the runner loads, so the libraries of their C extensions are mapped.
    import resource  # noqa: F401
    execution.load_allowed_modules()
    executable = sys.executable
    stdlib = {sysconfig.get_path('stdlib'), sysconfig.get_path('platstdlib')}
    libraries = [path for path in mapped_libraries() if not any(path.startswith(d + '/') for d in stdlib)]
    print(json.dumps({
        'executable': executable,
        'version': list(sys.version_info[:3]),
        'stdlib': sorted(stdlib),
        'interpreter': elf_interpreter(os.path.realpath(executable)),
        'libraries': libraries,
    }))


main()
