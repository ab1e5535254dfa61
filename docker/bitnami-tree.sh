#!/usr/bin/env bash
# Prints the LDIF of bitnami/openldap's default tree: the base entry, ou=<userDc> holding one
# inetOrgPerson/posixAccount per user (cn=<user>, uid=<user>, uidNumber from 1000) with its
# password, and the groupOfNames cn=<group> listing them all.
#   bitnami-tree.sh <baseDN> <userDc> <group> <user1,user2,...> <password1,password2,...>
set -euo pipefail
base="$1" user_dc="$2" group="$3"
IFS=',' read -r -a users <<< "$4"
IFS=',' read -r -a passwords <<< "$5"
if [ ${#users[@]} -ne ${#passwords[@]} ]; then
  echo "rockds: error: LDAP_USERS has ${#users[@]} names but LDAP_PASSWORDS ${#passwords[@]} passwords" >&2
  exit 1
fi
rdn="${base%%,*}"
value="${rdn#*=}"
case "${rdn%%=*}" in
  dc) printf 'dn: %s\nobjectClass: top\nobjectClass: domain\ndc: %s\n\n' "$base" "$value" ;;
  o) printf 'dn: %s\nobjectClass: top\nobjectClass: organization\no: %s\n\n' "$base" "$value" ;;
  ou) printf 'dn: %s\nobjectClass: top\nobjectClass: organizationalUnit\nou: %s\n\n' "$base" "$value" ;;
  *) echo "rockds: error: LDAP_ROOT=$base: the default tree needs a dc=, o= or ou= base entry" >&2; exit 1 ;;
esac
people="ou=$user_dc,$base"
printf 'dn: %s\nobjectClass: top\nobjectClass: organizationalUnit\nou: %s\n\n' "$people" "$user_dc"
members=()
for i in "${!users[@]}"; do
  user="${users[$i]}"
  n=$((i + 1))
  printf 'dn: cn=%s,%s\nobjectClass: top\nobjectClass: inetOrgPerson\nobjectClass: posixAccount\n' "$user" "$people"
  printf 'objectClass: shadowAccount\ncn: User%s\ncn: %s\nsn: Bar%s\nuid: %s\nuserPassword: %s\n' \
    "$n" "$user" "$n" "$user" "${passwords[$i]}"
  printf 'uidNumber: %s\ngidNumber: %s\nhomeDirectory: /home/%s\n\n' "$((999 + n))" "$((999 + n))" "$user"
  members+=("cn=$user,$people")
done
printf 'dn: cn=%s,%s\nobjectClass: top\nobjectClass: groupOfNames\ncn: %s\n' "$group" "$people" "$group"
printf 'member: %s\n' "${members[@]}"
