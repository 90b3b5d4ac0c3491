/** The public base url of customer-facing links (PUBLIC_BASE_URL, default http://localhost:PORT). */
export function publicBaseUrl(): string {
  return (process.env.PUBLIC_BASE_URL ?? `http://localhost:${process.env.PORT ?? 3000}`).replace(/\/$/, "");
}
