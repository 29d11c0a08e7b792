#!/bin/bash
# Issue 22: the bash completion steno makes from its command table completes commands,
# order's subcommands and each command's options (bash's compgen, through the completion
# function as bash calls it). The zsh and fish scripts are run by their shells in
# test_cli_completion.c. The scripts make install installs are the same (built by this steno).
set -u
bin=${STENO_BIN:-./steno}
pass=0
fail=0
check() {   # check NAME EXPECTED-WORD LINE...: completing the last word of LINE offers it
  local name=$1 want=$2
  shift 2
  COMP_WORDS=("$@")
  COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
  COMPREPLY=()
  _steno
  local w found=0
  for w in "${COMPREPLY[@]}"; do [ "$w" = "$want" ] && found=1; done
  if [ "$found" = 1 ]; then pass=$((pass + 1)); else
    fail=$((fail + 1)); echo "FAIL $name: '$want' not in: ${COMPREPLY[*]}"; fi
}
absent() {  # absent NAME WORD LINE...: not offered
  local name=$1 bad=$2
  shift 2
  COMP_WORDS=("$@")
  COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
  COMPREPLY=()
  _steno
  local w
  for w in "${COMPREPLY[@]}"; do
    if [ "$w" = "$bad" ]; then fail=$((fail + 1)); echo "FAIL $name: '$bad' offered"; return; fi
  done
  pass=$((pass + 1))
}
script=$("$bin" completion bash) || { echo "steno completion bash failed"; exit 1; }
eval "$script"
complete -p steno >/dev/null 2>&1 || { echo "no complete -F for steno"; fail=$((fail + 1)); }
check "commands" ls steno l
check "commands" languages steno l
check "every command of the table" completion steno comp
check "global options" --read-only steno --re
check "after global options" ls steno --profile work l
check "the value of --org is not the command" ls steno --org 5 l
check "order's subcommands" confirm steno order con
check "an order subcommand's options" --style-guide steno order create x.wav --sty
check "ls options" --all steno ls --a
check "ls options" --ndjson steno ls --nd
check "transcribe options" --folder-id steno transcribe a.wav --folder-i
check "short options" -o steno export ID -
check "help completes commands" watch steno help wa
check "completion's shells" fish steno completion f
check "cache's subcommands" info steno cache ""
check "cache's subcommands" clear steno cache cl
check "config's subcommands" paths steno config ""
check "a cache subcommand's options" --org steno cache clear --o
for t in default light solarized-dark gruvbox high-contrast mono; do
  check "--theme completes the theme names" "$t" steno --theme ""
done
absent "--theme's value is not a command" ls steno --theme ""
absent "--theme's value is not an option" --json steno --theme ""
absent "ls has no --wait" --wait steno ls --w
absent "order create is not order watch" --list steno order create --l
# steno help [CMD [SUB]] is the command's --help
same() {
  local name=$1 a b
  a=$(eval "$2" 2>&1); b=$(eval "$3" 2>&1)
  if [ -n "$a" ] && [ "$a" = "$b" ]; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL $name"; fi
}
same "help" "\"$bin\" help" "\"$bin\" --help"
same "help ls" "\"$bin\" help ls" "\"$bin\" ls --help"
same "help order create" "\"$bin\" help order create" "\"$bin\" order create --help"
# the zsh and fish scripts offer the same subcommands and theme names
for sh in zsh fish; do
  out=$("$bin" completion $sh)
  for w in paths info clear solarized-dark high-contrast; do
    case "$out" in *"$w"*) pass=$((pass + 1)) ;; *) fail=$((fail + 1)); echo "FAIL $sh lacks $w" ;; esac
  done
done
for sh in zsh fish; do
  out=$("$bin" completion $sh) && [ -n "$out" ] && pass=$((pass + 1)) || { fail=$((fail + 1)); echo "FAIL completion $sh"; }
done
echo "Synthesis: Tested: $((pass + fail)) | Passing: $pass | Failing: $fail | Crashing: 0"
[ "$fail" -eq 0 ]
