#!/usr/bin/env bash
# Server CPU of one search whose base DN is `cn=a,` x N + the suffix (issue 18, item 1): starts a
# fresh RockDS on 127.0.0.1:PORT from the build at ROCKDS_HOME (default: this repository), sends
# the base search with a 5 s time limit over a raw socket (anonymous; bound as root for N above
# 50,000, whose 250+ KB are over the anonymous request size limit) and prints the result and the
# CPU seconds the server process spent (utime+stime from /proc) until the answer, or for at most
# 120 s without one. With LIFT_DN_LIMITS=1, max-dn-rdns and max-dn-length are raised to their
# maximum first, so that the search goes all the way to the missing base and its matchedDN.
# Usage: [LIFT_DN_LIMITS=1] benchmarks/deep-dn.sh [PORT [N...]]      (default: 38389 20000 100000)
set -euo pipefail
home="${ROCKDS_HOME:-$(cd "$(dirname "$0")/.." && pwd)}"
cp="$home/tools/target/rockds-tools.jar:$home/tools/target/lib/*"
port="${1:-38389}"
[ $# -gt 0 ] && shift
[ $# -gt 0 ] || set -- 20000 100000
work="$(mktemp -d)"
pid=
trap '[ -n "$pid" ] && kill -9 "$pid" 2>/dev/null; rm -rf "$work"' EXIT
java -cp "$cp" io.rockds.tools.setup.Setup --instance "$work/i" --ldapPort "$port" --ldapsPort "$((port + 1))" \
  --rootUserPassword secret --baseDN dc=example,dc=com >/dev/null
if [ "${LIFT_DN_LIMITS:-}" = 1 ]; then
  java -cp "$cp" io.rockds.tools.dsconfig.DsConfig --offline --instance "$work/i" -n \
    set-global-configuration-prop --set max-dn-rdns:8388608 --set max-dn-length:8388608 >/dev/null
fi
java -Xmx1g -cp "$cp" io.rockds.server.Main --instance "$work/i" >"$work/out" 2>&1 &
pid=$!
for _ in $(seq 600); do grep -q "started" "$work/out" 2>/dev/null && break; sleep 0.1; done
for n in "$@"; do
  python3 - "$port" "$n" "$pid" <<'PY'
import os, socket, sys, time
port, n, pid = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
def tlv(tag, body):
    if len(body) < 128:
        return bytes([tag, len(body)]) + body
    size = len(body).to_bytes((len(body).bit_length() + 7) // 8, "big")
    return bytes([tag, 0x80 | len(size)]) + size + body
def message(msgid, op):
    return tlv(0x30, tlv(0x02, bytes([msgid])) + op)
def read_message(sock):
    head = sock.recv(2, socket.MSG_WAITALL)
    if len(head) < 2:
        return None
    size = head[1]
    if size & 0x80:
        size = int.from_bytes(sock.recv(size & 0x7f, socket.MSG_WAITALL), "big")
    return sock.recv(size, socket.MSG_WAITALL)
def cpu():
    fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
base = "cn=a," * n + "dc=example,dc=com"
sock = socket.create_connection(("127.0.0.1", port))
sock.settimeout(120)
if n > 50_000:
    sock.sendall(message(1, tlv(0x60, tlv(0x02, b"\x03") + tlv(0x04, b"cn=Directory Manager") + tlv(0x80, b"secret"))))
    read_message(sock)
search = tlv(0x63, tlv(0x04, base.encode()) + bytes([0x0a, 1, 0, 0x0a, 1, 0, 0x02, 1, 0, 0x02, 1, 5, 0x01, 1, 0])
             + tlv(0x87, b"objectClass") + tlv(0x30, tlv(0x04, b"1.1")))
before, start = cpu(), time.time()
sock.sendall(message(2, search))
try:
    answer = read_message(sock)
    # The result code is the first ENUMERATED of the response; the diagnostic follows the matchedDN.
    if answer is None:
        outcome = "no answer (connection closed)"
    else:
        at = 3 + 1  # past the messageID and the response's tag
        at += 1 + (answer[at] & 0x7f if answer[at] & 0x80 else 0)  # and its length
        outcome = f"result code {answer[at + 2]}"
except socket.timeout:
    outcome = "no answer within 120 s"
print(f"{n:>7} RDNs ({len(base)} bytes): {outcome}; server CPU {cpu() - before:.2f} s, wall {time.time() - start:.2f} s",
      flush=True)
PY
done
