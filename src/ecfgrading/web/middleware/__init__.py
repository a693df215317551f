"""The public site's edges that wrap every response: compression of what holds no secret
(``compression``) and the styled refusal of an address too long to read (``addresses``)."""
