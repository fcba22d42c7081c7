#!/bin/bash
# 005-layering.sh — the rooms and the one-way rule (tests/layering.py):
#   1. the build as it is: no room uses a room above it, no two files call
#      each other in a circle, every source is in a module fragment, every
#      folder of sources is a room in the order;
#   2. the picture in docs/ARCHITECTURE.md is the one the code gives
#      (`make docs` rewrites it);
#   3. the check can fail: in a scratch copy of the tree (sources, fragments,
#      and the build's objects linked in) each planted fault must be caught
#      and named: an upward call, an upward include, a circle, a source in
#      no fragment, a folder in no room, and a missing module fragment
#      (which must stop make itself).
set -u
O=${O:-build}
command -v python3 >/dev/null || { echo "skip: python3 missing (tests/deps.sh installs it)"; exit 77; }
command -v nm >/dev/null || { echo "skip: nm missing (binutils)"; exit 77; }
fail=0
bad() { echo "FAIL: $*"; fail=1; }

out=$(python3 tests/layering.py --objdir "$O" check) || { echo "$out"; bad "the build breaks the layering"; }
echo "$out" | tail -1
python3 tests/layering.py --objdir "$O" doc-check docs/ARCHITECTURE.md || bad "docs/ARCHITECTURE.md picture is stale"

T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
rooms=$(python3 -c 'import sys; sys.path.insert(0, "tests"); import layering; print(" ".join(sorted({r.split("/")[0] for r in layering.ROOM_NAMES})))')
for r in $rooms; do
	cp -r "$r" "$T/src/" || bad "copy of $r"
done
cp Makefile "$T/src/"; mkdir -p "$T/src/tests/e2e" "$T/src/dist"
cp tests/module.mk tests/deps.sh "$T/src/tests/"; cp tests/e2e/e2e.mk "$T/src/tests/e2e/"; cp dist/module.mk "$T/src/dist/"
mkdir -p "$T/obj"
for r in $rooms; do cp -as "$PWD/$O/$r" "$T/obj/" 2>/dev/null || true; done

# a global function of sim/ (a room near the top) to call from below
sym=$(nm --defined-only "$O"/sim/*.o 2>/dev/null | awk '$2 == "T" { print $3; exit }')
[ -n "$sym" ] || bad "no global function found in $O/sim/*.o"

check_planted() {  # what expected-text
	local what=$1 want=$2 got
	if got=$(python3 tests/layering.py --top "$T/src" --objdir "$T/obj" check); then
		bad "planted $what was not caught"
	elif ! grep -qF -- "$want" <<< "$got"; then
		echo "$got" | sed 's/^/    /'; bad "planted $what: no line naming '$want'"
	else
		echo "ok: planted $what caught: $(grep -F -- "$want" <<< "$got" | head -1 | cut -c1-150)"
	fi
}
undo() { rm -f "$T/src/common/zl_planted."* "$T/obj/common/zl_planted.o" "$T/src/emulator/zl_pa.c" \
	"$T/src/emulator/zl_pb.c" "$T/obj/emulator/zl_pa.o" "$T/obj/emulator/zl_pb.o"; rm -rf "$T/src/stray" "$T/obj/stray"
	cp common/module.mk "$T/src/common/module.mk"; cp emulator/module.mk "$T/src/emulator/module.mk"; }

out=$(python3 tests/layering.py --top "$T/src" --objdir "$T/obj" check) || { echo "$out"; bad "the scratch copy is not clean before planting"; }

# an upward call: common/ calls a function of sim/
printf 'void %s(void);\nvoid zl_planted(void) { %s(); }\n' "$sym" "$sym" > "$T/src/common/zl_planted.c"
cc -c -o "$T/obj/common/zl_planted.o" "$T/src/common/zl_planted.c"
echo 'LIB_SRCS += common/zl_planted.c' >> "$T/src/common/module.mk"
check_planted "upward call" "common/zl_planted.c uses $sym from sim/"
undo

# an upward include: a common/ header includes sim.h
printf '#include "sim.h"\n' > "$T/src/common/zl_planted.h"
check_planted "upward include" "common/zl_planted.h:1: includes sim/sim.h"
undo

# a circle: two emulator/ files calling each other
printf 'void zl_pb(void);\nvoid zl_pa(void) { zl_pb(); }\n' > "$T/src/emulator/zl_pa.c"
printf 'void zl_pa(void);\nvoid zl_pb(int x) { if (x) zl_pa(); }\n' > "$T/src/emulator/zl_pb.c"
cc -c -o "$T/obj/emulator/zl_pa.o" "$T/src/emulator/zl_pa.c"
cc -c -o "$T/obj/emulator/zl_pb.o" "$T/src/emulator/zl_pb.c"
echo 'LIB_SRCS += emulator/zl_pa.c emulator/zl_pb.c' >> "$T/src/emulator/module.mk"
check_planted "circle" "circle between files: emulator/zl_pa.c, emulator/zl_pb.c"
undo

# a source that no fragment names (it would not be built)
printf 'int zl_planted_unbuilt;\n' > "$T/src/common/zl_planted.c"
check_planted "unlisted source" "common/zl_planted.c: not named in any module fragment"
undo

# a folder of sources that is no room
mkdir -p "$T/src/stray" "$T/obj/stray"
printf 'int zl_stray;\n' > "$T/src/stray/stray.c"; cc -c -o "$T/obj/stray/stray.o" "$T/src/stray/stray.c"
echo 'LIB_SRCS += stray/stray.c' >> "$T/src/common/module.mk"
check_planted "folder in no room" "stray/: a folder of sources that is in no room"
undo

# a missing module fragment stops make
mv "$T/src/traces/module.mk" "$T/src/traces/module.mk.gone"
if msg=$(make -C "$T/src" -n all O="$T/mk" 2>&1); then
	bad "make went on without traces/module.mk"
elif ! grep -q 'traces/module.mk' <<< "$msg"; then
	echo "$msg" | tail -3; bad "make failed without naming traces/module.mk"
else
	echo "ok: missing fragment stops make: $(grep 'traces/module.mk' <<< "$msg" | head -1)"
fi

[ $fail -eq 0 ] && echo "layering: pass"
exit $fail
