#!/bin/sh
# A misbehaving UGI engine for the match tests: a correct handshake, then it exits (a crash)
# when asked to move.
while read -r line; do
  case "$line" in
    ugi) echo "id name crasher"; echo "ugiok" ;;
    isready) echo "readyok" ;;
    go*) exit 3 ;;
    quit) exit 0 ;;
  esac
done
