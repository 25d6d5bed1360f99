/** A kubernetes-models object (structurally: what rendering and validation use of it). */
export interface ManifestObject {
  toJSON(): unknown;
  validate(): void;
}

/** One YAML file of deploy/kubernetes/: its objects, and the comment above them. */
export interface ManifestFile {
  /** File name in deploy/kubernetes/. */
  file: string;
  /** The module of deploy/kubernetes/src/ that defines it (named in the generated header). */
  source: string;
  /** Comment lines written above the first document. */
  notes: readonly string[];
  objects: readonly ManifestObject[];
}
