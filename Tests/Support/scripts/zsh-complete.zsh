# What zsh's completion system offers for a command line, as a person pressing Tab sees it:
#   zsh -f zsh-complete.zsh DIR 'qrseal encode --fo'
# runs an interactive zsh on a pseudo-terminal (zsh/zpty) with compinit and the completion
# functions in DIR (a file _qrseal), types the line and a Tab, and prints every match the
# completion functions offered (compadd is wrapped to record them), one a line; on standard
# error, what the terminal showed when it holds a message of qrseal's.
dir=$1 line=$2
zmodload zsh/zpty || { print -u2 "zsh-complete: no zsh/zpty module"; exit 3; }
out=$dir/matches
: > $out
zpty qrs zsh -f -i
# The markers are printed by arithmetic, so that the terminal's echo of the command typed
# does not match them: a marker seen means every line before it was done.
# No kill character: should the line arrive before the line editor has put the terminal in
# raw mode (a loaded machine), the terminal's own line editing must not eat the Ctrl-U.
zpty -w qrs "stty kill undef; PS1='% '; fpath=(${(q)dir} \$fpath); autoload -Uz compinit; compinit -u -d ${(q)dir}/zcompdump"
zpty -w qrs "compadd() { local -a m; builtin compadd -O m \"\$@\"; (( \$#m )) && print -rl -- \$m >> ${(q)out}; return 0; }"
zpty -w qrs 'print -r -- "ready-$(( 6 * 7 ))"'
zpty -r -m qrs text '*ready-42*' || { print -u2 "zsh-complete: zsh did not start"; exit 3; }
# Tab, then Ctrl-U (kill the whole line, not a signal: Ctrl-C would flush what is typed).
zpty -w -n qrs "$line"$'\t'$'\x15'
zpty -w qrs 'print -r -- "done-$(( 6 * 8 ))"'
zpty -r -m qrs text '*done-48*' || { print -u2 "zsh-complete: completion did not finish"; exit 3; }
# A message of qrseal's, or an error in a function of the script's (_qrseal_names:3: …),
# would show on the terminal: say so.
setopt extended_glob
for shown in "${(@f)text}"; do
  [[ $shown == *(qrseal: |_qrseal[a-z_]#:<->: )* ]] && print -u2 -r -- "zsh-complete: the terminal showed: $shown"
done
zpty -d qrs
# The same match may be offered more than once (one per option group); each once, in order.
typeset -U matches
matches=("${(@f)$(<$out)}")
print -rl -- $matches
