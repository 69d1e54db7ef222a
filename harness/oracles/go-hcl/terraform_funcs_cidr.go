package main

// TERRAFORM-SPECIFIC IP network functions: Terraform defines these itself
// (internal/lang/funcs/cidr.go) on top of apparentlymart/go-cidr and its own
// fork of Go 1.16's CIDR parser (internal/ipaddr), which still accepts IPv4
// octets with leading zeros.

import (
	"fmt"
	"math/big"
	"net"

	"github.com/apparentlymart/go-cidr/cidr"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"
	"github.com/zclconf/go-cty/cty/gocty"
)

// Error texts of the CIDR wrappers, as Terraform words them.
const (
	errCIDRInvalid     = "invalid CIDR expression: %s"
	errCIDRNetmaskV6   = "IPv6 addresses cannot have a netmask: %s"
	errCIDRExtendMin   = "must extend prefix by at least one bit"
	errCIDRExtendMax   = "may not extend prefix by more than 32 bits"
	errCIDRTooLong     = "would extend prefix to %d bits, which is too long for an %s address"
	errCIDRNoRemaining = "not enough remaining address space for a subnet with a prefix of %d bits after %s"
)

// terraformCidrHostFunc computes the address of host number hostnum in a
// prefix (negative numbers count back from the end).
// Mirrors Terraform's funcs.CidrHostFunc.
var terraformCidrHostFunc = function.New(&function.Spec{
	Params: []function.Parameter{
		{Name: "prefix", Type: cty.String},
		{Name: "hostnum", Type: cty.Number},
	},
	Type: function.StaticReturnType(cty.String),
	Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
		var hostNum *big.Int
		if err := gocty.FromCtyValue(args[1], &hostNum); err != nil {
			return cty.UnknownVal(cty.String), err
		}
		_, network, err := parseLegacyCIDR(args[0].AsString())
		if err != nil {
			return cty.UnknownVal(cty.String), fmt.Errorf(errCIDRInvalid, err)
		}
		ip, err := cidr.HostBig(network, hostNum)
		if err != nil {
			return cty.UnknownVal(cty.String), err
		}
		return cty.StringVal(ip.String()), nil
	},
})

// terraformCidrNetmaskFunc gives an IPv4 prefix's netmask in dotted form.
// Mirrors Terraform's funcs.CidrNetmaskFunc.
var terraformCidrNetmaskFunc = function.New(&function.Spec{
	Params: []function.Parameter{{Name: "prefix", Type: cty.String}},
	Type:   function.StaticReturnType(cty.String),
	Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
		_, network, err := parseLegacyCIDR(args[0].AsString())
		if err != nil {
			return cty.UnknownVal(cty.String), fmt.Errorf(errCIDRInvalid, err)
		}
		if network.IP.To4() == nil {
			return cty.UnknownVal(cty.String), fmt.Errorf(errCIDRNetmaskV6, args[0].AsString())
		}
		return cty.StringVal(net.IP(network.Mask).String()), nil
	},
})

// terraformCidrSubnetFunc computes subnet number netnum of a prefix extended
// by newbits bits. Mirrors Terraform's funcs.CidrSubnetFunc.
var terraformCidrSubnetFunc = function.New(&function.Spec{
	Params: []function.Parameter{
		{Name: "prefix", Type: cty.String},
		{Name: "newbits", Type: cty.Number},
		{Name: "netnum", Type: cty.Number},
	},
	Type: function.StaticReturnType(cty.String),
	Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
		var newbits int
		if err := gocty.FromCtyValue(args[1], &newbits); err != nil {
			return cty.UnknownVal(cty.String), err
		}
		var netnum *big.Int
		if err := gocty.FromCtyValue(args[2], &netnum); err != nil {
			return cty.UnknownVal(cty.String), err
		}
		_, network, err := parseLegacyCIDR(args[0].AsString())
		if err != nil {
			return cty.UnknownVal(cty.String), fmt.Errorf(errCIDRInvalid, err)
		}
		subnet, err := cidr.SubnetBig(network, newbits, netnum)
		if err != nil {
			return cty.UnknownVal(cty.String), err
		}
		return cty.StringVal(subnet.String()), nil
	},
})

// terraformCidrSubnetsFunc allocates consecutive subnets of the given
// extension lengths. Mirrors Terraform's funcs.CidrSubnetsFunc.
var terraformCidrSubnetsFunc = function.New(&function.Spec{
	Params:   []function.Parameter{{Name: "prefix", Type: cty.String}},
	VarParam: &function.Parameter{Name: "newbits", Type: cty.Number},
	Type:     function.StaticReturnType(cty.List(cty.String)),
	Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
		_, network, err := parseLegacyCIDR(args[0].AsString())
		if err != nil {
			return cty.UnknownVal(cty.String), function.NewArgErrorf(0, errCIDRInvalid, err)
		}
		startPrefixLen, _ := network.Mask.Size()
		lengths := args[1:]
		if len(lengths) == 0 {
			return cty.ListValEmpty(cty.String), nil
		}
		var firstLength int
		if err := gocty.FromCtyValue(lengths[0], &firstLength); err != nil {
			return cty.UnknownVal(cty.String), function.NewArgError(1, err)
		}
		firstLength += startPrefixLen
		ret := make([]cty.Value, len(lengths))
		current, _ := cidr.PreviousSubnet(network, firstLength)
		for i, lengthArg := range lengths {
			var length int
			if err := gocty.FromCtyValue(lengthArg, &length); err != nil {
				return cty.UnknownVal(cty.String), function.NewArgError(i+1, err)
			}
			if length < 1 {
				return cty.UnknownVal(cty.String), function.NewArgErrorf(i+1, errCIDRExtendMin)
			}
			if length > 32 {
				return cty.UnknownVal(cty.String), function.NewArgErrorf(i+1, errCIDRExtendMax)
			}
			length += startPrefixLen
			if length > len(network.IP)*8 {
				protocol := "IP"
				switch len(network.IP) * 8 {
				case 32:
					protocol = "IPv4"
				case 128:
					protocol = "IPv6"
				}
				return cty.UnknownVal(cty.String), function.NewArgErrorf(i+1, errCIDRTooLong, length, protocol)
			}
			next, rollover := cidr.NextSubnet(current, length)
			if rollover || !network.Contains(next.IP) {
				return cty.UnknownVal(cty.String), function.NewArgErrorf(i+1, errCIDRNoRemaining, length, current.String())
			}
			current = next
			ret[i] = cty.StringVal(current.String())
		}
		return cty.ListVal(ret), nil
	},
})

// parseLegacyCIDR is net.ParseCIDR as of Go 1.16: IPv4 octets may have
// leading zeros (read as decimal). Mirrors Terraform's ipaddr.ParseCIDR.
func parseLegacyCIDR(s string) (net.IP, *net.IPNet, error) {
	slash := -1
	for i := 0; i < len(s); i++ {
		if s[i] == '/' {
			slash = i
			break
		}
	}
	if slash < 0 {
		return nil, nil, &net.ParseError{Type: "CIDR address", Text: s}
	}
	addr, maskText := s[:slash], s[slash+1:]
	size := net.IPv4len
	ip := parseLegacyIPv4(addr)
	if ip == nil {
		size = net.IPv6len
		ip = parseLegacyIPv6(addr)
	}
	n, used, ok := legacyDecimal(maskText)
	if ip == nil || !ok || used != len(maskText) || n < 0 || n > 8*size {
		return nil, nil, &net.ParseError{Type: "CIDR address", Text: s}
	}
	mask := net.CIDRMask(n, 8*size)
	return ip, &net.IPNet{IP: ip.Mask(mask), Mask: mask}, nil
}

// legacyNumberLimit bounds the digits parsers before they overflow.
const legacyNumberLimit = 0xFFFFFF

// legacyDecimal reads leading decimal digits: value, bytes used, success.
func legacyDecimal(s string) (int, int, bool) {
	n, i := 0, 0
	for ; i < len(s) && '0' <= s[i] && s[i] <= '9'; i++ {
		n = n*10 + int(s[i]-'0')
		if n >= legacyNumberLimit {
			return legacyNumberLimit, i, false
		}
	}
	if i == 0 {
		return 0, 0, false
	}
	return n, i, true
}

// legacyHex reads leading hexadecimal digits: value, bytes used, success.
func legacyHex(s string) (int, int, bool) {
	n, i := 0, 0
	for ; i < len(s); i++ {
		var d int
		switch c := s[i]; {
		case '0' <= c && c <= '9':
			d = int(c - '0')
		case 'a' <= c && c <= 'f':
			d = int(c-'a') + 10
		case 'A' <= c && c <= 'F':
			d = int(c-'A') + 10
		default:
			return legacyHexEnd(n, i)
		}
		n = n*16 + d
		if n >= legacyNumberLimit {
			return 0, i, false
		}
	}
	return legacyHexEnd(n, i)
}

func legacyHexEnd(n, i int) (int, int, bool) {
	if i == 0 {
		return 0, 0, false
	}
	return n, i, true
}

// parseLegacyIPv4 reads d.d.d.d, allowing leading zeros in each octet.
func parseLegacyIPv4(s string) net.IP {
	var p [net.IPv4len]byte
	for i := 0; i < net.IPv4len; i++ {
		if len(s) == 0 {
			return nil
		}
		if i > 0 {
			if s[0] != '.' {
				return nil
			}
			s = s[1:]
		}
		n, used, ok := legacyDecimal(s)
		if !ok || n > 0xFF {
			return nil
		}
		s = s[used:]
		p[i] = byte(n)
	}
	if len(s) != 0 {
		return nil
	}
	return net.IPv4(p[0], p[1], p[2], p[3])
}

// parseLegacyIPv6 reads an RFC 4291 address, with "::" and an optional
// trailing dotted IPv4 part.
func parseLegacyIPv6(s string) net.IP {
	ip := make(net.IP, net.IPv6len)
	ellipsis := -1
	if len(s) >= 2 && s[0] == ':' && s[1] == ':' {
		ellipsis = 0
		s = s[2:]
		if len(s) == 0 {
			return ip
		}
	}
	i := 0
	for i < net.IPv6len {
		n, used, ok := legacyHex(s)
		if !ok || n > 0xFFFF {
			return nil
		}
		if used < len(s) && s[used] == '.' {
			if ellipsis < 0 && i != net.IPv6len-net.IPv4len {
				return nil
			}
			if i+net.IPv4len > net.IPv6len {
				return nil
			}
			ip4 := parseLegacyIPv4(s)
			if ip4 == nil {
				return nil
			}
			copy(ip[i:i+4], ip4[12:16])
			s = ""
			i += net.IPv4len
			break
		}
		ip[i] = byte(n >> 8)
		ip[i+1] = byte(n)
		i += 2
		s = s[used:]
		if len(s) == 0 {
			break
		}
		if s[0] != ':' || len(s) == 1 {
			return nil
		}
		s = s[1:]
		if s[0] == ':' {
			if ellipsis >= 0 {
				return nil
			}
			ellipsis = i
			s = s[1:]
			if len(s) == 0 {
				break
			}
		}
	}
	if len(s) != 0 {
		return nil
	}
	if i < net.IPv6len {
		if ellipsis < 0 {
			return nil
		}
		gap := net.IPv6len - i
		for j := i - 1; j >= ellipsis; j-- {
			ip[j+gap] = ip[j]
		}
		for j := ellipsis + gap - 1; j >= ellipsis; j-- {
			ip[j] = 0
		}
	} else if ellipsis >= 0 {
		return nil
	}
	return ip
}
