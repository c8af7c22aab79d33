"""The plumbing every page shares: the signed session cookie and CSRF, security headers, error
pages, links to a game, the language of a request, the server's address, JSON reading, logs
without links, rate limits, and the forms' common fields."""
