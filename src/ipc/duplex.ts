/**
 * What the client and `ctl` speak their protocol over: a unix socket, or
 * ssh's stdio to a `lazyshell bridge` on another host (src/remote/).
 */
export interface Duplex {
  read(p: Uint8Array): Promise<number | null>;
  write(p: Uint8Array): Promise<number>;
  close(): void;
}
