#!/bin/sh
# A misbehaving UGI engine for the match tests: a correct handshake, then it never answers go
# (a hang); the match must kill it.
while read -r line; do
  case "$line" in
    ugi) echo "id name sleeper"; echo "ugiok" ;;
    isready) echo "readyok" ;;
    quit) exit 0 ;;
  esac
done
