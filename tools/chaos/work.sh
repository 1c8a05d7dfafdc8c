#!/bin/bash
# lazyshell chaos workload (tools/chaos/workloads.ts): bash work.sh KIND SEED
kind=$1
RANDOM=$2
r() { echo $(( RANDOM % ($2 - $1 + 1) + $1 )); }
nap() { sleep "$(( RANDOM % $1 )).$(( RANDOM % 10 ))"; }
# now and then a quiet spell, as real programs have: then only a few sessions print at once
rest() { (( RANDOM % 3 == 0 )) && sleep $(r 5 40); }
wide=('漢字テスト' '👩‍💻' $'e\xcc\x81' 'ñ̃' '🇫🇷' 'ｆｕｌｌ' '✅⚡' '한국어' 'a̐b̸c⃝' $'\t' 'ﷺ' '각' '🏳️‍🌈' 'Ａ')
case $kind in
flood)
  # bursts of lines, now and then a megabyte of one long line
  while :; do
    if (( RANDOM % 8 == 0 )); then head -c $(r 100000 1000000) /dev/zero | tr '\0' 'x'; echo
    else seq 1 $(r 100 20000); fi
    nap 3
    rest
  done ;;
alt)
  # a full-screen program: alternate screen, cursor moves, colours, then back
  while :; do
    printf '\e[?1049h\e[H\e[2J\e[?25l'
    for i in $(seq 1 $(r 5 60)); do
      printf '\e[%d;%dH\e[3%dm#%d\e[0m' $(r 1 70) $(r 1 260) $(r 0 7) $i
      (( RANDOM % 10 == 0 )) && printf '\e[%d;%dr\e[S\e[T\e[r' $(r 1 10) $(r 11 40)
    done
    nap 2
    printf '\e[?25h\e[?1049l'
    echo "left the alternate screen $RANDOM"
    nap 2
    rest
  done ;;
wide)
  # wide, combining, joined and flag characters, at every column
  while :; do
    for i in $(seq 1 $(r 1 40)); do
      line=""
      for j in $(seq 1 $(r 1 30)); do line+="${wide[RANDOM % ${#wide[@]}]}"; done
      printf '%*s%s\n' $(r 0 100) '' "$line"
    done
    nap 2
    rest
  done ;;
clears)
  # output, then one of the ways programs clear
  while :; do
    seq 1 $(r 1 300)
    case $(( RANDOM % 6 )) in
      0) printf '\e[2J\e[H' ;; 1) printf '\e[3J' ;; 2) printf '\ec' ;;
      3) printf '\e[%d;1H\e[J' $(r 1 40) ;; 4) printf '\e[H\e[2K\e[1K\e[K' ;; 5) clear ;;
    esac
    nap 3
    rest
  done ;;
progress)
  # a progress bar redrawn with \r, 256 and true colours
  while :; do
    for p in $(seq 0 5 100); do
      printf '\r\e[38;5;%dm[%-50s]\e[38;2;%d;%d;%dm %3d%%\e[0m' $(r 0 255) \
        "$(head -c $((p / 2)) /dev/zero | tr '\0' '=')" $(r 0 255) $(r 0 255) $(r 0 255) $p
      sleep 0.0$(r 1 9)
    done
    echo
    nap 2
    rest
  done ;;
lines)
  # long lines that wrap (reflowed on every resize), in and out of a scroll region
  while :; do
    for i in $(seq 1 $(r 1 30)); do head -c $(r 1 3000) /dev/zero | tr '\0' "$(( RANDOM % 10 ))"; echo; done
    printf '\e[%d;%dr' $(r 1 5) $(r 6 30); seq 1 $(r 10 200); printf '\e[r'
    nap 3
    rest
  done ;;
resize)
  # the program changes its own terminal's size under the server, then asks xterm to
  while :; do
    stty cols $(r 1 400) rows $(r 1 120) 2>/dev/null
    printf '\e[8;%d;%dt' $(r 1 100) $(r 1 300)
    seq 1 $(r 1 100)
    nap 4
    rest
  done ;;
spinner)
  # an agent's status line: one row redrawn in place, twenty times a second
  s='⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏'
  while :; do
    for i in $(seq 1 $(r 20 200)); do printf '\r%s working %d ' "${s:i%10:1}" $RANDOM; sleep 0.05; done
    echo; nap 2
    rest
  done ;;
cursor)
  # rows written anywhere by cursor moves, fifty times a second
  while :; do
    for i in $(seq 1 $(r 50 500)); do printf '\e[%d;%dH%s' $(r 1 70) $(r 1 200) $RANDOM; sleep 0.02; done
    (( RANDOM % 3 == 0 )) && printf '\e[H\e[2J'
    rest
  done ;;
*) echo "unknown kind $kind"; exit 2 ;;
esac
