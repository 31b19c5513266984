import { describe, expect, it } from 'vitest';
import { isAddressedTo, messageText } from './realtime-socket';

describe('messageSent addressing', () => {
  const me = { usr_cd: 7, usr_nm: 'CLERK1' };

  it('matches by code or login id', () => {
    expect(isAddressedTo({ to: 7 }, me)).toBe(true);
    expect(isAddressedTo({ usr_cd: '7' }, me)).toBe(true);
    expect(isAddressedTo({ usr_nm: 'clerk1' }, me)).toBe(true);
    expect(isAddressedTo({ to: [3, 7] }, me)).toBe(true);
  });

  it('ignores messages for others or for nobody', () => {
    expect(isAddressedTo({ to: 8 }, me)).toBe(false);
    expect(isAddressedTo({}, me)).toBe(false);
  });

  it('reads the text from message or msg', () => {
    expect(messageText({ message: 'Hi' })).toBe('Hi');
    expect(messageText({ msg: 'Yo' })).toBe('Yo');
    expect(messageText({ message: '  ' })).toBeNull();
  });
});
