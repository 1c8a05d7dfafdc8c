/**
 * `lazyshell init bash|zsh|fish`: the shell integration snippet (docs/notifications.md).
 * It marks prompts and commands with OSC 133 — A prompt start, B prompt end,
 * C command start, D;<exit code> command end — and reports the cwd with
 * OSC 7, the same marks tmux, WezTerm, Ghostty and VS Code read.
 *
 * lazyshell uses D to notify when a command of a non-agent session fails.
 * Each snippet emits D only after a command ran (an empty Enter sends no
 * C and no D) and is safe to source twice. Pure: text only.
 */

export const SHELLS = ["bash", "zsh", "fish"] as const;
export type ShellName = typeof SHELLS[number];

export function isShellName(s: string): s is ShellName {
  return (SHELLS as readonly string[]).includes(s);
}

/**
 * bash ≥ 4.4: PS0 (expanded after a command line is read, before it runs)
 * emits C and sets the "a command ran" flag through an arithmetic array
 * subscript, which expands to nothing; PROMPT_COMMAND emits D first, so
 * `$?` is still the command's status.
 *
 * The snippets are String.raw templates, so a shell `$` + `{` is written
 * `$\{` here (a template would interpolate it) and restored on output.
 */
const BASH = String.raw`# lazyshell shell integration for bash (OSC 133 + OSC 7)
# Add to ~/.bashrc:  eval "$(lazyshell init bash)"
if [ -n "$\{BASH_VERSION-}" ] && [ -z "$\{__lazyshell_integration-}" ]; then
  __lazyshell_integration=1
  __lazyshell_ran=0
  __lazyshell_prompt() {
    local code=$?
    if [ "$__lazyshell_ran" = 1 ]; then printf '\033]133;D;%s\007' "$code"; fi
    __lazyshell_ran=0
    printf '\033]7;file://%s%s\007' "$\{HOSTNAME-}" "$PWD"
    return $code
  }
  PROMPT_COMMAND="__lazyshell_prompt$\{PROMPT_COMMAND:+;$PROMPT_COMMAND}"
  PS1='\[\033]133;A\007\]'"$\{PS1-}"'\[\033]133;B\007\]'
  PS0='$\{__lazyshell_nil[__lazyshell_ran=1]}'$'\033]133;C\007'"$\{PS0-}"
fi
`;

const ZSH = String.raw`# lazyshell shell integration for zsh (OSC 133 + OSC 7)
# Add to ~/.zshrc:  eval "$(lazyshell init zsh)"
if [[ -n $\{ZSH_VERSION-} && -z $\{__lazyshell_integration-} ]]; then
  typeset -g __lazyshell_integration=1 __lazyshell_ran=0
  __lazyshell_precmd() {
    local code=$?
    (( __lazyshell_ran )) && printf '\033]133;D;%s\007' "$code"
    __lazyshell_ran=0
    printf '\033]7;file://%s%s\007' "$\{HOST-}" "$PWD"
    printf '\033]133;A\007'
  }
  __lazyshell_preexec() {
    __lazyshell_ran=1
    printf '\033]133;C\007'
  }
  # First in line, so $? is still the command's status.
  precmd_functions=(__lazyshell_precmd $precmd_functions)
  preexec_functions+=(__lazyshell_preexec)
  PS1="$PS1"$'%{\e]133;B\a%}'
fi
`;

const FISH = String.raw`# lazyshell shell integration for fish (OSC 133 + OSC 7)
# Add to ~/.config/fish/config.fish:  lazyshell init fish | source
if not set -q __lazyshell_integration
    set -g __lazyshell_integration 1
    function __lazyshell_preexec --on-event fish_preexec
        printf '\e]133;C\a'
    end
    function __lazyshell_postexec --on-event fish_postexec
        printf '\e]133;D;%s\a' $status
    end
    function __lazyshell_prompt --on-event fish_prompt
        printf '\e]7;file://%s%s\a' $hostname "$PWD"
        printf '\e]133;A\a'
    end
end
`;

const SNIPPETS: Readonly<Record<ShellName, string>> = { bash: BASH, zsh: ZSH, fish: FISH };

export function shellSnippet(shell: ShellName): string {
  return SNIPPETS[shell].replaceAll("$\\{", "${");
}
