/**
 * Tokenizer calibration. Episodic counts tokens locally with tiktoken; Anthropic and
 * Gemini tokenize differently (often 10-30% more tokens than o200k for the same
 * text). A {@link Calibration} scales local counts so the packer stays under the
 * provider's real limit.
 *
 * Safety margin: the factor is the larger of the running estimate and the latest
 * observed ratio, times `1 + safetyMargin` (default 5%). So after each call the
 * packer over-estimates a little rather than under-estimates, and a sudden jump in
 * the ratio (a message in a script that tokenizes badly) is taken at once, while a
 * drop is followed slowly.
 */
import { InvalidArgumentError } from '../errors/input-errors.js';

/** Options of {@link Calibration}. */
export interface CalibrationOptions {
  /** Factor before any observation: 1 for OpenAI models, more for other tokenizers. */
  initial?: number;
  /** Extra headroom on top of the observed ratio. Default 0.05 (5%). */
  safetyMargin?: number;
  /** Weight of a new observation in the running estimate. Default 0.3. */
  smoothing?: number;
}

/** A mutable scale factor from local token counts to a provider's counts. */
export class Calibration {
  /** The multiplier applied to raw local counts. */
  factor: number;
  /** Number of observations so far. */
  observations = 0;
  private estimate: number;
  private readonly safetyMargin: number;
  private readonly smoothing: number;

  constructor(options: CalibrationOptions = {}) {
    const initial = options.initial ?? 1;
    if (!(initial > 0)) throw new InvalidArgumentError(`calibration initial factor must be > 0 (got ${initial})`);
    this.factor = initial;
    this.estimate = initial;
    this.safetyMargin = options.safetyMargin ?? 0.05;
    this.smoothing = options.smoothing ?? 0.3;
  }

  /**
   * Records one model call: `predicted` is what the packer counted for the request
   * with factor `factorUsed` (default the current one), `reported` the provider's
   * input tokens for it. Pass `factorUsed` when other calls sharing this calibration
   * may have been observed in between (sessions of one agent running at once).
   */
  observe(predicted: number, reported: number, factorUsed: number = this.factor): void {
    if (!(predicted > 0) || !(reported > 0) || !(factorUsed > 0)) return;
    const ratio = reported / (predicted / factorUsed);
    this.estimate = this.observations === 0 ? ratio : this.estimate + this.smoothing * (ratio - this.estimate);
    this.observations += 1;
    this.factor = Math.max(this.estimate, ratio) * (1 + this.safetyMargin);
  }

  /** Scales a raw local count, rounding up. */
  apply(raw: number): number {
    return this.factor === 1 ? raw : Math.ceil(raw * this.factor);
  }
}
