import { describe, expect, it } from 'vitest';
import { globalErrorMessage } from './global-error-handler';
import { HttpError } from './http-client';

describe('globalErrorMessage', () => {
  it('toasts ordinary errors by their message', () => {
    expect(globalErrorMessage(new Error('Could not read the file.'))).toBe('Could not read the file.');
    expect(globalErrorMessage({ message: 'Plain object error' })).toBe('Plain object error');
  });

  it('stays silent for HTTP errors, silent statuses and type errors', () => {
    expect(globalErrorMessage(new HttpError(409, 'Exists.'))).toBeNull();
    expect(globalErrorMessage({ status: 404, message: 'x' })).toBeNull();
    expect(globalErrorMessage({ status: 504, message: 'x' })).toBeNull();
    expect(globalErrorMessage({ status: 401, message: 'x' })).toBeNull();
    expect(globalErrorMessage(new TypeError("Cannot read properties of undefined (reading 'x')"))).toBeNull();
  });

  it('ignores service worker and changed-after-checked errors, aborts and non-objects', () => {
    expect(globalErrorMessage(new Error('Failed to register a ServiceWorker'))).toBeNull();
    expect(globalErrorMessage(new Error('ExpressionChangedAfterItHasBeenCheckedError: ...'))).toBeNull();
    expect(globalErrorMessage(new DOMException('The user aborted a request.', 'AbortError'))).toBeNull();
    expect(globalErrorMessage('a string')).toBeNull();
    expect(globalErrorMessage(undefined)).toBeNull();
    expect(globalErrorMessage(new Error(''))).toBeNull();
  });
});
