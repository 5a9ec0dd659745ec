#!/bin/sh
# A misbehaving UGI engine for the match tests: a correct handshake, then an illegal move
# (hole 10 does not exist) for every go.
while read -r line; do
  case "$line" in
    ugi) echo "id name illegal-mover"; echo "ugiok" ;;
    isready) echo "readyok" ;;
    go*) echo "info depth 1 score cp 0 nodes 1"; echo "bestmove 10" ;;
    quit) exit 0 ;;
  esac
done
