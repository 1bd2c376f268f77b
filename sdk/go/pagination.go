package earshot

import (
	"context"
	"encoding/json"
	"fmt"
	"iter"
	"net/url"
	"strconv"
)

// ListPage is one page of a list: its items and the cursor of the next.
type ListPage[T any] struct {
	Items []T
	// NextCursor is nil on the last page.
	NextCursor *string
	next       func(ctx context.Context, cursor string) (*ListPage[T], error)
}

// HasNextPage reports whether another page follows this one.
func (p *ListPage[T]) HasNextPage() bool { return p.NextCursor != nil }

// NextPage fetches the page after this one; nil, nil on the last page.
func (p *ListPage[T]) NextPage(ctx context.Context) (*ListPage[T], error) {
	if p.NextCursor == nil {
		return nil, nil
	}
	return p.next(ctx, *p.NextCursor)
}

// lister fetches the pages of one list route.
type lister[T any] struct {
	client *Client
	path   string
	query  url.Values
}

func newLister[T any](c *Client, path string, params any) (*lister[T], error) {
	query, err := queryOf(params)
	if err != nil {
		return nil, err
	}
	return &lister[T]{client: c, path: path, query: query}, nil
}

func (l *lister[T]) page(ctx context.Context, cursor string) (*ListPage[T], error) {
	query := url.Values{}
	for k, v := range l.query {
		query[k] = v
	}
	if cursor != "" {
		query.Set("cursor", cursor)
	}
	var envelope struct {
		Items      []T     `json:"items"`
		NextCursor *string `json:"nextCursor"`
	}
	if err := l.client.call(ctx, "GET", l.path, query, nil, &envelope); err != nil {
		return nil, err
	}
	return &ListPage[T]{Items: envelope.Items, NextCursor: envelope.NextCursor, next: l.page}, nil
}

// firstPage is the explicit page API behind every ListPage method.
func firstPage[T any](ctx context.Context, c *Client, path string, params any) (*ListPage[T], error) {
	l, err := newLister[T](c, path, params)
	if err != nil {
		return nil, err
	}
	return l.page(ctx, "")
}

// all iterates every item of a list, page after page, fetching a page only
// when the items before it are used up. An error ends the iteration as its
// last element.
func all[T any](ctx context.Context, c *Client, path string, params any) iter.Seq2[T, error] {
	return func(yield func(T, error) bool) {
		var zero T
		page, err := firstPage[T](ctx, c, path, params)
		for {
			if err != nil {
				yield(zero, err)
				return
			}
			for _, item := range page.Items {
				if !yield(item, nil) {
					return
				}
			}
			if !page.HasNextPage() {
				return
			}
			page, err = page.NextPage(ctx)
		}
	}
}

// queryOf turns a params struct (or nil) into query parameters by its JSON names.
func queryOf(params any) (url.Values, error) {
	query := url.Values{}
	if params == nil {
		return query, nil
	}
	raw, err := json.Marshal(params)
	if err != nil {
		return nil, fmt.Errorf("earshot: encoding the query: %w", err)
	}
	var fields map[string]any
	if err := json.Unmarshal(raw, &fields); err != nil {
		return nil, fmt.Errorf("earshot: encoding the query: %w", err)
	}
	for name, value := range fields {
		switch v := value.(type) {
		case nil:
		case string:
			query.Set(name, v)
		case float64:
			query.Set(name, strconv.FormatFloat(v, 'f', -1, 64))
		default:
			query.Set(name, fmt.Sprint(v))
		}
	}
	return query, nil
}
