# Shifts every port of ports.env by CRAWLER_STACK_PORT_OFFSET (default 0), so a second instance of
# the stack runs beside the main one on other ports. Sourced right after ports.env; the names come
# from ports.env itself, so it stays the one place where ports are written.
STACK_PORT_OFFSET="${CRAWLER_STACK_PORT_OFFSET:-0}"
if [[ ! "$STACK_PORT_OFFSET" =~ ^[0-9]+$ ]] || ((STACK_PORT_OFFSET > 30000)); then
  echo "CRAWLER_STACK_PORT_OFFSET must be a whole number from 0 to 30000, got '$STACK_PORT_OFFSET'" >&2
  exit 2
fi
if ((STACK_PORT_OFFSET)); then
  for _name in $(sed -n 's/^\([A-Z_]*_PORTS\{0,1\}\)=.*/\1/p' "$(dirname "${BASH_SOURCE[0]}")/ports.env"); do
    _shifted=""
    for _port in ${!_name}; do _shifted+="${_shifted:+ }$((_port + STACK_PORT_OFFSET))"; done
    printf -v "$_name" '%s' "$_shifted"
  done
  unset _name _port _shifted
fi
