/**
 * The part of pacote (npm's package fetcher) that the registry client uses. pacote ships no
 * types; declaring only what we call keeps its option bag from leaking further.
 */
declare module "pacote" {
  interface PacoteOptions {
    readonly registry?: string;
    readonly cache?: string;
    readonly fullMetadata?: boolean;
    readonly ca?: string | readonly string[] | null;
    readonly strictSSL?: boolean;
    readonly proxy?: string | null;
    readonly httpsProxy?: string | null;
    readonly noProxy?: string | null;
    readonly timeout?: number;
  }

  interface Manifest {
    readonly name: string;
    readonly version: string;
  }

  interface Packument {
    readonly name: string;
    readonly "dist-tags": Readonly<Record<string, string>>;
  }

  /** Errors carry npm's codes: E404, ETARGET, EINVALIDTAGNAME, ECONNREFUSED, … */
  interface Pacote {
    manifest(spec: string, options?: PacoteOptions): Promise<Manifest>;
    /** Unpacks the package's tarball into `dest` (created if needed). */
    extract(spec: string, dest: string, options?: PacoteOptions): Promise<{ readonly resolved: string }>;
    packument(spec: string, options?: PacoteOptions): Promise<Packument>;
  }

  const pacote: Pacote;
  export default pacote;
}
