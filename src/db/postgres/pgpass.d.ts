/** The pgpass module (pg's own reader of the pgpass file), which ships no types. */
declare module 'pgpass' {
  function pgpass(connection: Record<string, unknown>, answer: (password: string | undefined) => void): void;
  export default pgpass;
}
