/** A JSON object the server made, as a seam hands it to a defect's hook to spoil. */
export type JsonObject = Record<string, unknown>;
