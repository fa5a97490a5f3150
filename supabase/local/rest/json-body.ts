/** A request's JSON body for the REST API, with PostgREST's 400 (PGRST102) when it cannot be read as sent. */
import { UnrepresentableNumberError } from '../json-numbers.ts';
import type { StackRequest } from '../request.ts';
import { jsonBody } from '../request.ts';
import { RestError } from './errors.ts';

export function restJsonBody(req: StackRequest): unknown {
  try {
    return jsonBody(req);
  } catch (error) {
    if (error instanceof UnrepresentableNumberError) {
      throw new RestError(
        400,
        'PGRST102',
        'Invalid number in the request body',
        `${error.message}. Nothing was stored.`,
        'Send a number within the field\'s limits, or send the value as a JSON string for the database to read exactly.',
      );
    }
    throw new RestError(400, 'PGRST102', 'Empty or invalid json');
  }
}
