-- Keys that held every scope before providers:read and providers:write existed
-- (each tenant's first key, the demonstration key) keep holding every scope.
update api_keys
   set scopes = array(select distinct unnest(scopes || array['providers:read', 'providers:write']) order by 1)
 where scopes @> array['events:write', 'calls:read', 'metrics:read', 'exports:read', 'outcomes:read', 'outcomes:write', 'incidents:read',
                       'incidents:write', 'deployments:read', 'deployments:write', 'alerts:read', 'alerts:write', 'usage:read', 'billing:read',
                       'audit:read', 'keys:read', 'keys:write']
   and not scopes @> array['providers:read', 'providers:write'];
