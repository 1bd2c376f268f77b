package earshot

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
)

// answer sends a request and decodes its whole answer as a T.
func answer[T any](ctx context.Context, c *Client, method, path string, params, body any, options []RequestOption) (*T, error) {
	query, err := queryOf(params)
	if err != nil {
		return nil, err
	}
	out := new(T)
	if err := c.call(ctx, method, path, query, body, out, options...); err != nil {
		return nil, err
	}
	return out, nil
}

// member sends a request and decodes one member of its answer (`{"ok": true, "call": {…}}`) as a T.
func member[T any](ctx context.Context, c *Client, method, path, name string, body any, options []RequestOption) (*T, error) {
	var envelope map[string]json.RawMessage
	if err := c.call(ctx, method, path, nil, body, &envelope, options...); err != nil {
		return nil, err
	}
	out := new(T)
	if err := json.Unmarshal(envelope[name], out); err != nil {
		return nil, fmt.Errorf("earshot: decoding %s of the answer to %s %s: %w", name, method, path, err)
	}
	return out, nil
}

func pathOf(format string, ids ...string) string {
	escaped := make([]any, len(ids))
	for i, id := range ids {
		escaped[i] = url.PathEscape(id)
	}
	return fmt.Sprintf(format, escaped...)
}
