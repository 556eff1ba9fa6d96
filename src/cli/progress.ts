/**
 * What a terminal shows while the runner works: on a TTY one line per phase, redrawn with its
 * counts, the step, the spend and an ETA; otherwise plain lines when a phase or a step ends.
 */
import type { RunEvent } from '../engine/events';
import { printable } from '../core/basics/printable';

export class Progress {
  private line = '';
  private step = '';
  private usd = 0;
  private phaseStart = 0;

  constructor(
    /** Writes a line. */
    private readonly write: (text: string) => void,
    /** Writes without a line break, on a terminal only (null elsewhere). */
    private readonly raw: ((text: string) => void) | null,
  ) {}

  private get tty(): boolean {
    return this.raw !== null;
  }

  event(e: RunEvent): void {
    switch (e.type) {
      case 'stage':
        this.step = `step ${e.step}/${e.totalSteps}`;
        break;
      case 'progress': {
        if (!this.tty) break;
        if (e.done <= 1) this.phaseStart = Date.now();
        const eta = e.done > 0 ? ((Date.now() - this.phaseStart) / e.done) * (e.total - e.done) : 0;
        this.redraw(
          `${this.step} ${e.phase} ${bar(e.done, e.total)} ${e.done}/${e.total} · $${this.usd.toFixed(2)}${e.done < e.total && eta > 1000 ? ` · ${Math.round(eta / 1000)} s left` : ''}`,
        );
        break;
      }
      case 'usage':
        this.usd = e.totalCostUsd;
        break;
      case 'baseline':
        this.say(`Baseline: ${e.score.toFixed(3)} on ${e.n} validation items.`);
        break;
      case 'step':
        this.say(
          `Step ${e.step}: ${e.action.replace(/_/g, ' ')}${e.candidateScore !== null ? ` (${e.candidateScore.toFixed(3)} vs ${e.scoreBefore.toFixed(3)})` : ''}${e.refusedBy ? `, refused by the target ${e.refusedBy}` : ''}, best ${e.bestScore.toFixed(3)} · $${this.usd.toFixed(2)}`,
        );
        break;
      case 'log':
        if (e.level !== 'info') this.say(`${e.level}: ${e.message}`);
        break;
      default:
        break;
    }
  }

  done(): void {
    if (this.line) this.raw?.('\r\x1b[2K');
    this.line = '';
  }

  private redraw(text: string): void {
    this.line = text;
    this.raw?.(`\r\x1b[2K${printable(text).replace(/\n/g, ' ')}`);
  }

  private say(text: string): void {
    if (this.line) this.raw?.('\r\x1b[2K');
    this.line = '';
    this.write(text);
  }
}

function bar(done: number, total: number, width = 20): string {
  const full = total ? Math.round((done / total) * width) : 0;
  return `[${'#'.repeat(full)}${'.'.repeat(width - full)}]`;
}
