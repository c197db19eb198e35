import { data } from "react-router";

/**
 * The submitted form of a page action. A body that is not a form (JSON, garbage, a wrong
 * content type) is the client's mistake: answer 400, which the error boundary explains,
 * instead of letting the parser's exception become a 500.
 */
export async function readFormData(request: Request): Promise<FormData> {
  try {
    return await request.formData();
  } catch {
    throw data({ reason: "badRequest" }, { status: 400 });
  }
}
