#!/usr/bin/env bash
# Healthy once the first-start import has completed and an anonymous root DSE search answers.
# Never binds as the root user, whose password may have changed since the container started.
set -euo pipefail
data="${ROCKDS_DATA:-/data}"
[ -f "$data/.rockds-bootstrapped" ] || exit 1
exec ldapsearch -x -LLL -H "ldap://127.0.0.1:${LDAP_PORT_NUMBER:-1389}" -s base -b "" -l 4 1.1 >/dev/null
