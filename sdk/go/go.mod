module github.com/earshot/earshot-go

go 1.23

require github.com/coder/websocket v1.8.15

require github.com/standard-webhooks/standard-webhooks/libraries v0.0.1
