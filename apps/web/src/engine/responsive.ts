/** Spec section 9: mobile view is a screen width of 768 px or less. */
export const MOBILE_QUERY = '(max-width: 768px)';
