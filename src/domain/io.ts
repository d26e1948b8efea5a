// The action's output sink, as the coordinator and the reports see it: logs, outputs, secrets,
// job summary and annotations. src/io.ts wires it to @actions/core.

export interface Annotation {
  title: string;
  file?: string;
  startLine?: number;
}

export interface ActionIO {
  info(message: string): void;
  /** Saved for the action's post step (the runner's step state); absent where there is none. */
  saveState?(name: string, value: string): void;
  warning(message: string, annotation?: Annotation): void;
  notice(message: string, annotation?: Annotation): void;
  error(message: string, annotation?: Annotation): void;
  setOutput(name: string, value: string): void;
  setSecret(value: string): void;
  setFailed(message: string): void;
  appendSummary(markdown: string): Promise<void>;
  /** Puts `markdown` before what the step's summary holds: what a reader must see first. */
  prependSummary(markdown: string): Promise<void>;
}
