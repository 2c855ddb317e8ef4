/** A published entry point of a workspace package. */
export interface EntryPoint {
  /** The report's name: `core` for `@episodic/core`, `core-testing` for `@episodic/core/testing`. */
  report: string;
  /** The package folder. */
  folder: string;
  /** The entry point's declaration file. */
  entry: string;
}

/** What API Extractor found for one entry point. */
export interface ReportResult {
  report: string;
  /** True when the built package's report differs from `api/<report>.api.md`. */
  changed: boolean;
  /** Errors and warnings other than the report difference (forgotten exports, broken links, bad doc comments). */
  problems: string[];
  /** The difference, as a patch; empty when there is none (or when updating). */
  diff: string;
}

export declare const reportFolder: string;
export declare const updateCommand: string;
export declare function entryPoints(): EntryPoint[];
export declare function checkApiReports(options?: { update?: boolean }): Promise<ReportResult[]>;
