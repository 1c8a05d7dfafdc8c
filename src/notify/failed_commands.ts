/**
 * Failed-command notifications (docs/notifications.md): a session without an agent
 * notifies when its last command exits non-zero, as OSC 133;D reports it
 * (`lazyshell init bash|zsh|fish` prints the shell integration).
 *
 * Pure state machine over session facts: the caller feeds OSC 133 marks and
 * agent sightings, it answers whether a D mark deserves a notification.
 *
 * Rules: a D counts only after a C (a command actually ran; an empty
 * Enter re-reports the previous status); a command during which an agent
 * was seen — identified in the foreground, or any arbitrated agent state —
 * never notifies (the agent notifies for itself, N1).
 */

export class FailedCommands {
  #running = new Map<string, { agentSeen: boolean }>();

  /** OSC 133 mark C: a command starts. `agentNow`: an agent is identified right now. */
  commandStarted(sessionId: string, agentNow: boolean): void {
    this.#running.set(sessionId, { agentSeen: agentNow });
  }

  /** An agent was identified, or an agent state arrived, for this session. */
  agentSeen(sessionId: string): void {
    const run = this.#running.get(sessionId);
    if (run) run.agentSeen = true;
  }

  /**
   * OSC 133 mark D: the command ended. Returns the exit code to notify
   * about, or null when there is nothing to say.
   */
  commandEnded(sessionId: string, exitCode: number | null, agentNow: boolean): number | null {
    const run = this.#running.get(sessionId);
    this.#running.delete(sessionId);
    if (!run || run.agentSeen || agentNow) return null;
    return exitCode !== null && exitCode !== 0 ? exitCode : null;
  }

  forget(sessionId: string): void {
    this.#running.delete(sessionId);
  }
}
