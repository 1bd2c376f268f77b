-- Keys that held every scope before calls:write existed (each tenant's first
-- key, the demonstration key) keep holding every scope: erasing a call needs it.
update api_keys
   set scopes = array(select distinct unnest(scopes || array['calls:write']) order by 1)
 where scopes @> array['events:write', 'calls:read', 'metrics:read', 'exports:read', 'outcomes:read', 'outcomes:write', 'incidents:read',
                       'incidents:write', 'deployments:read', 'deployments:write', 'alerts:read', 'alerts:write', 'usage:read', 'billing:read',
                       'audit:read', 'keys:read', 'keys:write', 'providers:read', 'providers:write']
   and not scopes @> array['calls:write'];
